import AuthTestSupport
import Foundation
import PortalAuthGNOME
import Testing

extension GNOMEIntegration {
    /// The seed page's `TurnkeyContext` on the desktop's pieces (libsoup, libcrypto) against the
    /// emulator over loopback, its pages driven like a browser without JavaScript. Stores are in
    /// memory (the keyring stores have their own suite). Tokens and keys are compared, never printed.
    @Suite(.serialized) struct TurnkeyContextIntegrationTests {
        let emulator: AdministeredEmulator
        let pages = ProviderPageBrowser()

        init() async throws {
            GLibLoopThread.ensureRunning()
            emulator = try #require(AdministeredEmulator.shared, "the emulator must start (swift build first)")
            try await emulator.reset()
        }

        var base: String { emulator.baseURL.absoluteString }

        /// The seed page's configuration, pointed at the emulator.
        func config(createSuborgParams: TurnkeyConfig.Auth.CreateSuborgParamsByAuthMethod? = nil) -> TurnkeyConfig {
            TurnkeyConfig(
                apiUrl: base + "/turnkey/api",
                authProxyUrl: base + "/turnkey/auth-proxy",
                authProxyConfigId: "local-dev",
                rpId: "127.0.0.1",
                organizationId: "",
                auth: .init(
                    oauth: .init(
                        appScheme: "io.github.portalauth.signin",
                        providers: .init(
                            google: .init(primaryClientId: .init(webClientId: "emulator-turnkey-google")),
                            x: .init(primaryClientId: "emulator-turnkey-x"),
                            discord: .init(primaryClientId: "emulator-turnkey-discord")
                        )
                    ),
                    createSuborgParams: createSuborgParams
                )
            )
        }

        /// A context whose browser signs in on the emulator's pages as Alice and hands the app's
        /// redirect to the running sign-in, as the desktop does.
        func context(_ config: TurnkeyConfig) -> (TurnkeyContext, EmulatorPagesBrowser) {
            let browser = EmulatorPagesBrowser(pages: pages)
            let context = TurnkeyContext(
                config: config,
                services: .init(
                    transport: SoupTransport(),
                    stores: TurnkeyStores(
                        sessions: InMemoryTurnkeySessionStore(), keys: InMemoryKeyStore(), pending: InMemoryTurnkeyPendingSignInStore()),
                    crypto: LibcryptoProvider(), browser: browser,
                    oauthOriginUrl: base + "/turnkey/oauth-origin",
                    authorizeUrls: [.discord: base + "/idp/discord/authorize", .x: base + "/idp/x/authorize"]))
            if let auth = context.auth { browser.desktop.withLock { $0 = DesktopRedirects(auth) } }
            return (context, browser)
        }

        @Test func aGoogleSignInCreatesTheConfiguredWalletAndListsItsAccounts() async throws {
            let wallet = v1WalletParams(
                accounts: [
                    .init(
                        addressFormat: .address_format_ethereum, curve: .curve_secp256k1, path: "m/44'/60'/0'/0/0",
                        pathFormat: .path_format_bip32),
                    .init(
                        addressFormat: .address_format_solana, curve: .curve_ed25519, path: "m/44'/501'/0'/0'",
                        pathFormat: .path_format_bip32)
                ], walletName: "Main wallet")
            let (context, browser) = context(
                config(
                    createSuborgParams: .init(
                        oauth: CreateSubOrgParams(userName: "Alice", subOrgName: "Alice's wallet org", customWallet: wallet))))
            try await context.handleGoogleOAuth(anchor: FakeAnchor(handle: "x11:3c00007"))
            #expect(browser.parentWindows == ["x11:3c00007"])
            #expect(context.authState == .authenticated)
            try await context.refreshWallets()

            let wallets = context.wallets
            #expect(wallets.map(\.walletName) == ["Main wallet"])
            let accounts = try #require(wallets.first?.accounts)
            #expect(accounts.map(\.addressFormat) == ["ADDRESS_FORMAT_ETHEREUM", "ADDRESS_FORMAT_SOLANA"])
            #expect(accounts.map(\.path) == ["m/44'/60'/0'/0/0", "m/44'/501'/0'/0'"])
            let ethereum = accounts[0].address
            #expect(ethereum.hasPrefix("0x") && ethereum.count == 42 && ethereum.dropFirst(2).allSatisfy(\.isHexDigit))
            let solana = accounts[1].address
            #expect((32...44).contains(solana.count) && !solana.contains(where: { "0OIl".contains($0) }))
            #expect(try await context.fetchUser().userName == "Alice")

            let state = try await emulator.admin("GET", "turnkey") as? [String: Any]
            let organization = try #require((state?["organizations"] as? [[String: Any]])?.first)
            #expect(organization["organizationName"] as? String == "Alice's wallet org")
            let listed = try #require((organization["wallets"] as? [[String: Any]])?.first?["accounts"] as? [[String: Any]])
            #expect(listed.map { $0["address"] as? String } == [ethereum, solana])
            #expect(try await emulator.requests("POST", "/turnkey/auth-proxy/v1/signup_v2").map(\.status) == [200])
        }

        @Test func anyOIDCProviderYourOwnFlowBoundToACreatedKeyCompletes() async throws {
            let (context, _) = context(config())
            let key = try await context.createKeyPair()
            let nonce = try await context.nonce(forPublicKey: key)

            let idToken = try await ownOIDCFlow(nonce: nonce)
            let result = try await context.completeOAuth(oidcToken: idToken, publicKey: key, providerName: "Emulator OIDC")
            #expect(result.action == .signup)
            #expect(context.session?.publicKey == key)
            let user = try await context.fetchUser()
            #expect(user.userName?.hasPrefix("user-") == true, "no email taken from the token: the SDK names the user by time")

            // A second sign-in of the same person logs in to the same sub-organization.
            await context.clearSession()
            let again = try await context.createKeyPair()
            let second = try await context.completeOAuth(
                oidcToken: try await ownOIDCFlow(nonce: try await context.nonce(forPublicKey: again)), publicKey: again)
            #expect(second.action == .login && second.session.organizationId == result.session.organizationId)
        }

        @Test func aTokenFromYourOwnFlowBoundToAnotherKeyIsRefusedBeforeAnythingIsSent() async throws {
            let (context, _) = context(config())
            let key = try await context.createKeyPair()
            let other = try await context.createKeyPair()
            let idToken = try await ownOIDCFlow(nonce: try await context.nonce(forPublicKey: other))
            let before = try await emulator.requests().filter { $0.path.hasPrefix("/turnkey/") }.count
            await #expect(throws: TurnkeyAuthError.nonceMismatch) {
                try await context.completeOAuth(oidcToken: idToken, publicKey: key)
            }
            #expect(try await emulator.requests().filter { $0.path.hasPrefix("/turnkey/") }.count == before)
            #expect(context.session == nil)
        }

        /// An app's own OpenID Connect sign-in against the emulator's generic issuer: discovery, the
        /// authorize page (as Alice), the code for an `id_token` at the token endpoint.
        private func ownOIDCFlow(nonce: String) async throws -> String {
            let transport = SoupTransport()
            let discovery = try await transport.send(
                HTTPRequest(method: "GET", url: URL(string: base + "/idp/oidc/.well-known/openid-configuration")!))
            let document = try #require(JSONSerialization.jsonObject(with: discovery.body) as? [String: Any])
            let authorize = try #require(document["authorization_endpoint"] as? String)
            let tokenEndpoint = try #require(document["token_endpoint"] as? String)
            let redirectUri = "io.github.portalauth.signin://oidc"
            let query = JavaURLEncoder.encode([
                ("client_id", "my-desktop-app"), ("redirect_uri", redirectUri), ("response_type", "code"),
                ("scope", "openid email"), ("state", "own-state"), ("nonce", nonce)
            ])
            let redirect = try await pages.signIn(authorizeUrl: authorize + "?" + query, choices: ["email": "alice@example.com"])
            let parameters = URLText(redirect).queryParameters
            #expect(parameters["state"] == "own-state")
            let code = try #require(parameters["code"])
            let form = JavaURLEncoder.encode([
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectUri), ("client_id", "my-desktop-app")
            ])
            let answer = try await transport.send(
                HTTPRequest(
                    method: "POST", url: URL(string: tokenEndpoint)!,
                    headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(form.utf8)))
            #expect(answer.status == 200)
            let tokens = try #require(JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
            let idToken = try #require(tokens["id_token"] as? String)
            #expect(try JWTClaims(jwt: idToken).string("nonce") == nonce)
            return idToken
        }
    }
}

/// A browser for `TurnkeyContext` tests: records the window each sign-in was opened from, signs in
/// on the emulator's pages, and hands the app's redirect to the running sign-in.
final class EmulatorPagesBrowser: BrowserLauncher, Sendable {
    let pages: ProviderPageBrowser
    let desktop = Box<DesktopRedirects?>(nil)
    private let parents = Box<[String]>([])

    init(pages: ProviderPageBrowser) { self.pages = pages }

    var parentWindows: [String] { parents.current }

    func open(_ url: URL, from anchor: (any PresentationAnchor)?) async throws {
        let parent = await anchor?.parentWindow() ?? ""
        parents.withLock { $0.append(parent) }
        try await open(url)
    }

    func open(_ url: URL) async throws {
        let pages = pages
        let desktop = desktop
        Task {
            guard let redirect = try? await pages.signIn(authorizeUrl: url.absoluteString, choices: ["email": "alice@example.com"]) else {
                return
            }
            desktop.current?.deliver(redirect)
        }
    }
}
