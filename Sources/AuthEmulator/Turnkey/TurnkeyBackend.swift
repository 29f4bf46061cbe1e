import AuthBase
import Foundation

/// The emulated Turnkey: its Auth Proxy configs, and the sub-organizations, sessions and activities
/// made since the last reset. Its OIDC tokens are signed with the Turnkey key of `EmulatorContext`.
final class TurnkeyBackend {
    let config: TurnkeyConfig
    let context: EmulatorContext
    let identityProviders: IdentityProviders
    private(set) var directory = TurnkeyDirectory()

    init(config: TurnkeyConfig, context: EmulatorContext, identityProviders: IdentityProviders) {
        self.config = config
        self.context = context
        self.identityProviders = identityProviders
    }

    /// Every sub-organization, session and activity forgotten.
    func reset() { directory = TurnkeyDirectory() }

    var now: Int { context.now }
    var baseURL: String { context.baseURL }

    static func authProxy(_ path: String) -> String { TurnkeyWire.EmulatorPath.authProxyBase + path }
    static func api(_ path: String) -> String { TurnkeyWire.EmulatorPath.apiBase + path }
}
