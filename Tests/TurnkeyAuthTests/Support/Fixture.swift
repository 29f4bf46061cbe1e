import Foundation
import Testing
import AuthTestSupport
@testable import TurnkeyAuth

/// One TurnkeyAuth wired to fakes, its clock at a fixed time that tests move.
struct Fixture {
    static let configId = "local-dev"
    static let authProxyUrl = "http://127.0.0.1:8790/turnkey/auth-proxy"
    static let apiUrl = "http://127.0.0.1:8790/turnkey/api"
    static let appRedirect = "io.github.portalauth.signin://"
    static let redirectPage = "http://127.0.0.1:8790/turnkey/oauth-redirect"
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    let transport = ScriptedTransport()
    let sessions = InMemorySessionStore()
    let keys = InMemoryKeyStore()
    let pending = InMemoryPendingStore()
    let crypto = FakeCrypto()
    let browser = FakeBrowser()
    let inbox = RedirectInbox()
    let logger = RecordingLogger()
    let time = Box(Fixture.start)
    let sleeps = Box<[Duration]>([])
    let auth: TurnkeyAuth

    static func configuration() -> TurnkeyConfiguration {
        TurnkeyConfiguration(authProxyUrl: authProxyUrl, authProxyConfigId: configId, apiUrl: apiUrl,
                             oauthOriginUrl: "http://127.0.0.1:8790/turnkey/oauth-origin",
                             discordAuthorizeUrl: "http://127.0.0.1:8790/idp/discord/authorize",
                             xAuthorizeUrl: "http://127.0.0.1:8790/idp/x/authorize")
    }

    init(withBrowser: Bool = true, configure: (inout TurnkeyConfiguration) -> Void = { _ in }) throws {
        var configuration = Self.configuration()
        configure(&configuration)
        let time = self.time, sleeps = self.sleeps
        auth = try TurnkeyAuth(
            configuration: configuration, transport: transport,
            stores: TurnkeyStores(sessions: sessions, keys: keys, pending: pending), crypto: crypto,
            browser: withBrowser ? browser : nil, redirects: withBrowser ? inbox : nil, logger: logger,
            clock: TurnkeyClock(now: { time.current }, sleep: { duration in sleeps.withLock { $0.append(duration) } }))
    }

    /// Another instance on the same stores, transport and clock: the app after a restart, or the CLI
    /// in another process.
    func restarted() throws -> TurnkeyAuth {
        let time = self.time
        return try TurnkeyAuth(configuration: Self.configuration(), transport: transport,
                               stores: TurnkeyStores(sessions: sessions, keys: keys, pending: pending), crypto: crypto,
                               logger: logger, clock: TurnkeyClock(now: { time.current }, sleep: { _ in }))
    }

    var now: Date { time.current }
    func advance(seconds: TimeInterval) { time.withLock { $0 += seconds } }

    /// The private key (as the fake crypto stores it) for a public key, or nil.
    func privateKey(for publicKey: String) -> [UInt8]? { keys.items.items[publicKey].flatMap(Hex.decode) }

    /// Starts a sign-in, answering `wallet_kit_config` the first time, and returns its URL.
    func startSignIn(_ provider: TurnkeyProvider, clientId: String? = nil,
                     additionalState: [String: String] = [:]) async throws -> TurnkeyLoginURL {
        if auth.walletKit.withLock({ $0 == nil }) { transport.reply(TK.walletKit()) }
        return try await auth.loginURL(for: provider, clientId: clientId, additionalState: additionalState)
    }

    /// A whole sign-in through `loginURL` and `handleRedirect`: the user has a sub-organization
    /// (`organizationId`, a login) or not (nil, a signup).
    @discardableResult
    func signIn(_ provider: TurnkeyProvider = .google, sessionKey: String? = nil, organizationId: String? = "sub-org-1",
                sub: String = "google-sub-1", expiresIn: TimeInterval = 900) async throws -> CompleteOAuthResult {
        let login = try await startSignIn(provider)
        let token = TK.oidcToken(for: login.publicKey, sub: sub)
        let callback: String
        if provider.usesPKCE {
            transport.reply(TK.oauth2(token))
            callback = Self.codeCallback(state: login.state)
        } else {
            callback = Self.idTokenCallback(token, state: login.state)
        }
        transport.reply(TK.account(organizationId))
        if organizationId == nil { transport.reply(TK.signedUp) }
        transport.reply(TK.session(TK.sessionJwt(publicKey: login.publicKey, expiresAt: now.addingTimeInterval(expiresIn),
                                                 organizationId: organizationId ?? "sub-org-1")))
        let result = try await auth.handleRedirect(callback, sessionKey: sessionKey)
        return try #require(result?.completed)
    }

    /// The callback the redirect page forwards for Google and Apple.
    static func idTokenCallback(_ idToken: String, state: String) -> String {
        "\(appRedirect)?id_token=\(idToken)&state=\(state)"
    }

    /// The callback Discord and X send.
    static func codeCallback(_ code: String = Secrets.providerCode, state: String) -> String {
        "\(appRedirect)?code=\(code)&state=\(state)"
    }
}

/// The bodies Turnkey's Auth Proxy and API answer with, and the tokens they carry.
enum TK {
    static let parentOrganization = "org-parent"

    static func walletKit(providers: [String] = ["google", "apple", "discord", "x"], expiration: String = "900",
                          clientIds: [String: String]? = ["google": "emulator-turnkey-google", "apple": "emulator-turnkey-apple",
                                                          "discord": "emulator-turnkey-discord", "x": "emulator-turnkey-x"],
                          redirectUrl: String? = Fixture.redirectPage) -> String {
        var object: [String: Any] = ["enabledProviders": providers, "sessionExpirationSeconds": expiration,
                                     "organizationId": parentOrganization]
        if let clientIds { object["oauthClientIds"] = clientIds }
        if let redirectUrl { object["oauthRedirectUrl"] = redirectUrl }
        return json(object)
    }

    static func nonce(_ publicKey: String) -> String { Hex.encode(SHA256.hash(Array(publicKey.utf8))) }

    /// `tknonce`: Turnkey's second binding claim, for providers whose `nonce` the app does not choose.
    static func oidcToken(nonce: String?, tknonce: String? = nil, iss: String = "http://127.0.0.1:8790/idp/google",
                          aud: String = "emulator-turnkey-google", sub: String = "google-sub-1",
                          email: String? = "alice@example.com") -> String {
        var claims: [String: Any] = ["iss": iss, "aud": aud, "sub": sub, "iat": 1_800_000_000, "exp": 1_800_000_600]
        if let nonce { claims["nonce"] = nonce }
        if let tknonce { claims["tknonce"] = tknonce }
        if let email { claims["email"] = email }
        return Secrets.jwt(claims: claims)
    }

    /// An OIDC token bound to `publicKey`.
    static func oidcToken(for publicKey: String, sub: String = "google-sub-1") -> String {
        oidcToken(nonce: nonce(publicKey), sub: sub)
    }

    static func sessionJwt(publicKey: String, expiresAt: Date = Fixture.start.addingTimeInterval(900),
                           organizationId: String = "sub-org-1", userId: String = "user-1") -> String {
        Secrets.jwt(claims: ["exp": Int(expiresAt.timeIntervalSince1970), "public_key": publicKey,
                             "session_type": "SESSION_TYPE_READ_WRITE", "user_id": userId, "organization_id": organizationId])
    }

    static func session(_ jwt: String) -> String { json(["session": jwt]) }
    static func account(_ organizationId: String?) -> String { organizationId.map { json(["organizationId": $0]) } ?? "{}" }
    static let signedUp = #"{"organizationId":"sub-org-1","userId":"user-1"}"#
    static func oauth2(_ token: String) -> String { json(["oidcToken": token]) }
    static let whoami = #"{"organizationId":"sub-org-1","organizationName":"sub-org-1800000000","userId":"user-1","username":"alice@example.com"}"#

    static func activity(status: String = "ACTIVITY_STATUS_COMPLETED", session: String? = nil, id: String = "act-1") -> String {
        var activity: [String: Any] = ["id": id, "status": status, "type": "ACTIVITY_TYPE_STAMP_LOGIN", "organizationId": "sub-org-1",
                                       "fingerprint": "fp", "canApprove": false, "canReject": false,
                                       "createdAt": ["seconds": "1800000000", "nanos": "0"],
                                       "updatedAt": ["seconds": "1800000000", "nanos": "0"], "intent": [:], "votes": []]
        activity["result"] = session.map { ["stampLoginResult": ["session": $0]] } ?? [:]
        return json(["activity": activity])
    }

    static func error(_ code: Int, _ message: String) -> String { json(["code": code, "message": message, "details": []]) }

    static func json(_ object: Any) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}

extension TurnkeyRedirectResult {
    var completed: CompleteOAuthResult? {
        if case .authenticated(let result) = self { return result }
        return nil
    }

    var oauthSuccess: OAuthSuccess? {
        if case .oidcToken(let success) = self { return success }
        return nil
    }
}

extension URL {
    /// The query items, decoded, in order.
    var queryItems: [(String, String)] {
        (URLComponents(url: self, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }
    }

    func query(_ name: String) -> String? { queryItems.last { $0.0 == name }?.1 }
}
