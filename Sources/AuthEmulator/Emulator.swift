import AuthBase
import Foundation

/// The whole emulated world, composed of what it plays: Portal, Turnkey, the identity providers,
/// and the administration that tests and people use. The router sends each request to its part.
/// All access happens on the GLib main loop thread, one request at a time, so no locking is needed.
final class Emulator {
    static let maxBodyBytes = 64 * 1024

    let context: EmulatorContext
    let identityProviders: IdentityProviders
    let portal: PortalBackend
    let turnkey: TurnkeyBackend
    let administration: Administration
    private let router: Router
    /// Set by `--state-file`: what the emulator made is kept there for its next start.
    var stateKeeper: StateKeeper?

    /// Throws only when libcrypto cannot make the signing keys.
    init(config: EmulatorConfig, adminToken: AdminToken = .random(), dashboardKey: DashboardKey = .random()) throws {
        context = try EmulatorContext()
        identityProviders = IdentityProviders(
            context: context, portalEnvironments: config.environments,
            turnkeyApps: config.turnkey)
        portal = PortalBackend(environments: config.environments, context: context, identityProviders: identityProviders)
        turnkey = TurnkeyBackend(config: config.turnkey, context: context, identityProviders: identityProviders)
        administration = Administration(
            adminToken: adminToken, dashboardKey: dashboardKey, context: context, portal: portal, turnkey: turnkey,
            identityProviders: identityProviders)
        router = Router(
            context: context, portal: portal, turnkey: turnkey, identityProviders: identityProviders,
            administration: administration)
    }

    /// `http://127.0.0.1:PORT`, set by the server once it listens.
    var baseURL: String {
        get { context.baseURL }
        set { context.baseURL = newValue }
    }

    /// Entry point for every request.
    func handle(_ request: EmulatorRequest) -> RequestOutcome {
        let outcome = router.handle(request)
        stateKeeper?.save(self)
        return outcome
    }
}
