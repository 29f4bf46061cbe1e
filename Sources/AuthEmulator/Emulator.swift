import AuthBase
import Foundation
import AuthPlatform

/// The whole emulated world: configuration, clock and every piece of state. All access happens on the
/// GLib main loop thread, one request at a time, so no locking is needed.
final class Emulator {
    static let maxBodyBytes = 64 * 1024

    /// As configured at start; `reset` returns to it.
    let initialConfig: EmulatorConfig
    /// What is in force now: `POST /emulator/v1/environments/<id>` changes an environment's methods.
    var config: EmulatorConfig
    /// `http://127.0.0.1:PORT`, known once the server listens; authorize and callback URLs are built from it.
    var baseURL = "http://127.0.0.1:8790"
    let clock = EmulatorClock()
    let jwt = JwtSigner()
    let libcrypto = LibcryptoProvider()
    /// The signing keys of the fake providers and of Turnkey; kept across resets.
    let tokens: OIDCTokens
    /// What the administration API and the dashboard ask for; kept across resets.
    let adminToken: AdminToken

    private(set) var users: UserDirectory
    private(set) var grants = GrantStore()
    private(set) var sessions = SessionRegistry()
    private(set) var oauthStates = OAuthStateStore()
    private(set) var google = FakeGoogle()
    private(set) var apple = FakeApple()
    private(set) var appleSubjects = AppleSubjects()
    private(set) var outbox = Outbox()
    private(set) var requests = RequestLog()
    private(set) var faults = FaultQueue()
    private(set) var turnkey = TurnkeyDirectory()
    private(set) var oauth2Codes = OAuth2CodeStore()
    /// At most 5 magic links per email and environment per minute.
    var magicLinkLimit = RateWindow(limit: 5, windowSeconds: 60)
    /// More than 5 wrong TOTP codes within 5 minutes locks the user out (429) until the window passes.
    var totpFailures = RateWindow(limit: 5, windowSeconds: 300)

    /// Throws only when libcrypto cannot make the signing keys.
    init(config: EmulatorConfig, adminToken: AdminToken = .random()) throws {
        self.initialConfig = config
        self.adminToken = adminToken
        self.config = config
        users = UserDirectory(config: config)
        tokens = try OIDCTokens(libcrypto: libcrypto)
    }

    var now: Int { clock.unixSeconds }

    /// Back to a fresh start: users re-seeded (new TOTP secrets), everything issued forgotten (Turnkey's
    /// sub-organizations, sessions, activities and codes too), clock real. Signing keys stay.
    func reset() {
        config = initialConfig
        clock.reset()
        users = UserDirectory(config: config)
        grants = GrantStore()
        sessions = SessionRegistry()
        oauthStates = OAuthStateStore()
        google = FakeGoogle()
        apple = FakeApple()
        appleSubjects = AppleSubjects()
        outbox = Outbox()
        requests = RequestLog()
        faults = FaultQueue()
        turnkey = TurnkeyDirectory()
        oauth2Codes = OAuth2CodeStore()
        magicLinkLimit = RateWindow(limit: 5, windowSeconds: 60)
        totpFailures = RateWindow(limit: 5, windowSeconds: 300)
    }

    func callbackURL(environmentId: String) -> String { baseURL + PortalWire.Path.oauthCallbackPrefix + environmentId }

    /// The environment whose callback URL this is, if it is one of ours.
    func environment(forCallback url: String) -> EnvironmentConfig? {
        config.environments.first { callbackURL(environmentId: $0.id) == url }
    }
}
