import AuthTestSupport
import Foundation
import Testing

@testable import TurnkeyAuth

/// One TurnkeyAuth wired to fakes, its clock at a fixed time that tests move.
struct TurnkeyCoreFixture {
    static let configId = "local-dev"
    static let authProxyUrl = "http://127.0.0.1:8790/turnkey/auth-proxy"
    static let apiUrl = "http://127.0.0.1:8790/turnkey/api"
    static let appRedirect = "io.github.portalauth.signin://"
    static let redirectPage = TK.redirectPage
    static let start = TK.start

    let transport = ScriptedTransport()
    let sessions = InMemoryTurnkeySessionStore()
    let keys = InMemoryKeyStore()
    let pending = InMemoryTurnkeyPendingSignInStore()
    let crypto = FakeCrypto()
    let browser = FakeBrowser()
    let logger = RecordingLogger()
    let time = Box(TurnkeyCoreFixture.start)
    let sleeps = Box<[Duration]>([])
    let auth: TurnkeyAuth

    static func configuration() -> TurnkeyConfiguration {
        TurnkeyConfiguration(
            authProxyUrl: authProxyUrl, authProxyConfigId: configId, apiUrl: apiUrl,
            oauthOriginUrl: "http://127.0.0.1:8790/turnkey/oauth-origin",
            authorizeUrls: [.discord: "http://127.0.0.1:8790/idp/discord/authorize", .x: "http://127.0.0.1:8790/idp/x/authorize"])
    }

    init(withBrowser: Bool = true, configure: (inout TurnkeyConfiguration) -> Void = { _ in }) throws {
        var configuration = Self.configuration()
        configure(&configuration)
        let time = self.time
        let sleeps = self.sleeps
        auth = try TurnkeyAuth(
            configuration: configuration, transport: transport,
            stores: TurnkeyStores(sessions: sessions, keys: keys, pending: pending), crypto: crypto,
            browser: withBrowser ? browser : nil, logger: logger,
            clock: TurnkeyClock(now: { time.current }, sleep: { duration in sleeps.withLock { $0.append(duration) } }))
    }

    /// Another instance on the same stores, transport and clock: the app after a restart, or the CLI
    /// in another process.
    func restarted() throws -> TurnkeyAuth {
        let time = self.time
        return try TurnkeyAuth(
            configuration: Self.configuration(), transport: transport,
            stores: TurnkeyStores(sessions: sessions, keys: keys, pending: pending), crypto: crypto,
            logger: logger, clock: TurnkeyClock(now: { time.current }, sleep: { _ in }))
    }

    /// The desktop handing the app's URLs to `auth`'s browser sign-in.
    var desktop: DesktopRedirects { DesktopRedirects(auth) }

    var now: Date { time.current }
    func advance(seconds: TimeInterval) { time.withLock { $0 += seconds } }

    /// The private key (as the fake crypto stores it) for a public key, or nil.
    func privateKey(for publicKey: String) -> [UInt8]? { keys.items.items[publicKey].flatMap(Hex.decode) }

    /// Starts a sign-in, answering `wallet_kit_config` the first time, and returns its URL.
    func startSignIn(
        _ provider: TurnkeyProvider, clientId: String? = nil,
        additionalState: [String: String] = [:]
    ) async throws -> TurnkeyLoginURL {
        if auth.walletKit.withLock({ $0 == nil }) { transport.reply(TK.walletKit()) }
        return try await auth.loginURL(for: provider, clientId: clientId, additionalState: additionalState)
    }

    /// A whole sign-in through `loginURL` and `handleRedirect`: the user has a sub-organization
    /// (`organizationId`, a login) or not (nil, a signup).
    @discardableResult
    func signIn(
        _ provider: TurnkeyProvider = .google, sessionKey: String? = nil, organizationId: String? = "sub-org-1",
        sub: String = "google-sub-1", expiresIn: TimeInterval = 900
    ) async throws -> CompleteOAuthResult {
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
        transport.reply(
            TK.session(
                TK.sessionJwt(
                    publicKey: login.publicKey, expiresAt: now.addingTimeInterval(expiresIn),
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
