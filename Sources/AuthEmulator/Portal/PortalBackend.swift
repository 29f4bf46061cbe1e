import AuthBase
import Foundation

/// The emulated Portal: its environments (as configured, and as the administration changed them),
/// end users, grants, client sessions, OAuth states, the magic links it sent and its rate limits.
final class PortalBackend {
    let context: EmulatorContext
    let identityProviders: IdentityProviders
    /// As configured at start; `reset` returns to them.
    let initialEnvironments: [EnvironmentConfig]
    /// What is in force now: `POST /emulator/v1/environments/<id>` changes an environment's methods.
    var environments: [EnvironmentConfig]
    /// Signs the user JWTs of a pending TOTP step; kept across resets.
    let jwt = JwtSigner()

    private(set) var users: UserDirectory
    private(set) var grants: GrantStore
    private(set) var sessions = SessionRegistry()
    private(set) var oauthStates: OAuthStateStore
    /// The backend's memory of Apple `sub`s (Apple's own side is `IdentityProviders.apple`).
    private(set) var appleSubjects = AppleSubjects()
    private(set) var outbox = Outbox()
    /// At most 5 magic links per email and environment per minute.
    var magicLinkLimit = RateWindow(limit: 5, windowSeconds: 60)
    /// More than 5 wrong TOTP codes within 5 minutes locks the user out (429) until the window passes.
    var totpFailures = RateWindow(limit: 5, windowSeconds: 300)

    init(environments: [EnvironmentConfig], context: EmulatorContext, identityProviders: IdentityProviders) {
        self.context = context
        self.identityProviders = identityProviders
        initialEnvironments = environments
        self.environments = environments
        users = UserDirectory(environments: environments)
        grants = GrantStore(clock: context.clock)
        oauthStates = OAuthStateStore(clock: context.clock)
    }

    /// Back to the configured environments with users re-seeded (new TOTP secrets), everything
    /// issued forgotten.
    func reset() {
        environments = initialEnvironments
        users = UserDirectory(environments: environments)
        grants = GrantStore(clock: context.clock)
        sessions = SessionRegistry()
        oauthStates = OAuthStateStore(clock: context.clock)
        appleSubjects = AppleSubjects()
        outbox = Outbox()
        magicLinkLimit = RateWindow(limit: 5, windowSeconds: 60)
        totpFailures = RateWindow(limit: 5, windowSeconds: 300)
    }

    var now: Int { context.now }
    var baseURL: String { context.baseURL }

    func environment(_ id: String) -> EnvironmentConfig? { environments.first { $0.id == id } }

    func callbackURL(environmentId: String) -> String { Self.callbackURL(baseURL: baseURL, environmentId: environmentId) }

    /// Where the fake Google and Apple answer an environment's sign-ins.
    static func callbackURL(baseURL: String, environmentId: String) -> String {
        baseURL + PortalWire.Path.oauthCallbackPrefix + environmentId
    }
}
