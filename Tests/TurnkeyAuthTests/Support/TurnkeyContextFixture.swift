import AuthTestSupport
import Foundation
import Testing

@testable import TurnkeyAuth

/// A `TurnkeyContext` on fakes: a small fake Turnkey answering by path, in-memory stores, the fake
/// browser answering like a provider, and a test clock the refresh timer sleeps on.
final class TurnkeyContextFixture: Sendable {
    static let authProxy = "/turnkey/auth-proxy"
    static let api = "/turnkey/api"

    let transport = RoutedTransport()
    let sessions = InMemoryTurnkeySessionStore()
    let keys = InMemoryKeyStore()
    let pending = InMemoryTurnkeyPendingSignInStore()
    let crypto = FakeCrypto()
    let browser = FakeBrowser()
    let clock = TestClock(start: TK.start)
    /// The fake Turnkey's users: none known until a signup.
    let knownUser = Box(false)
    /// `stamp_login` refuses the old session (401) while set.
    let refusesRefresh = Box(false)
    /// How long the sessions the fake Turnkey issues last.
    let sessionLifetime = Box<TimeInterval>(900)

    /// The seed page's configuration, pointed at the fake.
    static func seedPageConfig(auth: TurnkeyConfig.Auth? = nil) -> TurnkeyConfig {
        TurnkeyConfig(
            apiUrl: "http://127.0.0.1:8790/turnkey/api",
            authProxyUrl: "http://127.0.0.1:8790/turnkey/auth-proxy",
            authProxyConfigId: "local-dev",
            rpId: "example.com",
            organizationId: TK.parentOrganization,
            auth: auth
                ?? .init(
                    oauth: .init(
                        appScheme: "io.github.portalauth.signin",
                        providers: .init(
                            google: .init(primaryClientId: .init(webClientId: "emulator-turnkey-google")),
                            apple: .init(),
                            x: .init(primaryClientId: "emulator-turnkey-x"),
                            discord: .init(primaryClientId: "emulator-turnkey-discord")
                        )
                    )
                )
        )
    }

    init() {
        let desktop = Box<DesktopRedirects?>(nil)
        self.desktop = desktop
        route()
        browser.onOpen { url in
            guard let state = url.query("state"), let redirects = desktop.current else { return }
            if url.path.hasSuffix("/authorize") {
                redirects.deliver("io.github.portalauth.signin://?code=\(Secrets.providerCode)&state=\(state)")
            } else {
                redirects.deliver("io.github.portalauth.signin://?id_token=\(TK.oidcToken(nonce: url.query("nonce")))&state=\(state)")
            }
        }
    }

    private let desktop: Box<DesktopRedirects?>

    /// A context on the fakes; the browser answers its sign-ins.
    func context(_ config: TurnkeyConfig = seedPageConfig()) -> TurnkeyContext {
        let clock = self.clock
        let context = TurnkeyContext(
            config: config,
            services: .init(
                transport: transport, stores: TurnkeyStores(sessions: sessions, keys: keys, pending: pending), crypto: crypto,
                browser: browser, clock: TurnkeyClock(now: { clock.now }, sleep: { try await clock.sleep($0) }),
                oauthOriginUrl: "http://127.0.0.1:8790/turnkey/oauth-origin",
                authorizeUrls: [.discord: "http://127.0.0.1:8790/idp/discord/authorize", .x: "http://127.0.0.1:8790/idp/x/authorize"]))
        if let auth = context.auth { desktop.withLock { $0 = DesktopRedirects(auth) } }
        return context
    }

    private func route() {
        let clock = clock
        let knownUser = knownUser
        let refusesRefresh = refusesRefresh
        let lifetime = sessionLifetime
        @Sendable func session(for publicKey: String) -> String {
            TK.sessionJwt(publicKey: publicKey, expiresAt: clock.now.addingTimeInterval(lifetime.current))
        }
        transport.route(Self.authProxy + "/v1/wallet_kit_config") { _ in (200, TK.walletKit()) }
        transport.route(Self.authProxy + "/v1/account") { _ in (200, TK.account(knownUser.current ? "sub-org-1" : nil)) }
        transport.route(Self.authProxy + "/v1/signup_v2") { _ in
            knownUser.withLock { $0 = true }
            return (200, TK.signedUp)
        }
        transport.route(Self.authProxy + "/v1/oauth2_authenticate") { request in
            (200, TK.oauth2(TK.oidcToken(nonce: request.jsonBody["nonce"] as? String)))
        }
        transport.route(Self.authProxy + "/v1/oauth_login") { request in
            (200, TK.session(session(for: request.jsonBody["publicKey"] as? String ?? "")))
        }
        transport.route(Self.api + "/public/v1/query/get_user") { _ in
            (
                200,
                #"{"user":{"userId":"user-1","userName":"Alice","userEmail":"alice@example.com","oauthProviders":[{"providerName":"google"}]}}"#
            )
        }
        transport.route(Self.api + "/public/v1/query/list_wallets") { _ in
            (
                200,
                #"{"wallets":[{"walletId":"wallet-1","walletName":"Default","createdAt":{"seconds":"1800000000","nanos":"0"},"updatedAt":{"seconds":"1800000000","nanos":"0"},"exported":false,"imported":false}]}"#
            )
        }
        transport.route(Self.api + "/public/v1/query/list_wallet_accounts") { _ in
            (
                200,
                #"{"accounts":[{"walletAccountId":"account-1","walletId":"wallet-1","organizationId":"sub-org-1","curve":"CURVE_SECP256K1","pathFormat":"PATH_FORMAT_BIP32","path":"m/44'/60'/0'/0/0","addressFormat":"ADDRESS_FORMAT_ETHEREUM","address":"0x00000000000000000000000000000000000000aa"}]}"#
            )
        }
        transport.route(Self.api + "/public/v1/submit/stamp_login") { request in
            if refusesRefresh.current { return (401, TK.error(16, "could not verify api key signature")) }
            let parameters = request.jsonBody["parameters"] as? [String: Any]
            return (200, TK.activity(session: session(for: parameters?["publicKey"] as? String ?? "")))
        }
    }

    /// Returns once `condition` holds for the context's state (checked now and after each change).
    func until(_ context: TurnkeyContext, _ condition: @escaping @Sendable (TurnkeyContext) -> Bool) async {
        let (changes, continuation) = AsyncStream.makeStream(of: Void.self)
        context.onStateChange = { _ in continuation.yield() }
        defer { context.onStateChange = nil }
        if condition(context) { return }
        for await _ in changes where condition(context) { return }
    }

    /// The signup_v2 bodies sent.
    var signups: [[String: Any]] { transport.requests(to: Self.authProxy + "/v1/signup_v2").map(\.jsonBody) }
}
