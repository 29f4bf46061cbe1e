import AuthTestSupport
import Foundation
import Testing

@testable import TurnkeyAuth

@Suite("TurnkeyContext: the seed page's code on Linux", .timeLimit(.minutes(1)))
struct TurnkeyContextTests {
    typealias F = TurnkeyContextFixture

    @Test func theSeedPagesConfigurationMapsOntoTheCore() throws {
        let config = TurnkeyConfig(
            apiUrl: "https://api.turnkey.com",
            authProxyUrl: "https://authproxy.turnkey.com",
            authProxyConfigId: "config-1",
            rpId: "example.com",
            organizationId: "org-1",
            auth: .init(
                oauth: .init(
                    appScheme: "com.example.wallet",
                    providers: .init(
                        google: .init(primaryClientId: .init(webClientId: "google-web"), secondaryClientIds: ["google-ios"]),
                        apple: .init(primaryClientId: .init(serviceId: "com.example.service")),
                        x: .init(primaryClientId: "x-client", redirectUri: "com.example.wallet://x"),
                        discord: .init(primaryClientId: "discord-client")
                    )
                )
            )
        )
        let core = config.configuration()
        #expect(core.authProxyConfigId == "config-1" && core.organizationId == "org-1" && core.appScheme == "com.example.wallet")
        #expect(core.clientIds[.google] == TurnkeyClientIds(primary: "google-web", secondary: ["google-ios"]))
        #expect(core.clientIds[.apple] == TurnkeyClientIds(primary: "com.example.service"))
        #expect(core.clientIds[.x]?.primary == "x-client" && core.clientIds[.discord]?.primary == "discord-client")
        #expect(core.redirectUris == [.x: "com.example.wallet://x"])
        #expect(core.oauthOriginUrl == "https://oauth-origin.turnkey.com")
        // The SDK's own argument order still compiles, with Turnkey's production URLs.
        let sdkOrder = TurnkeyConfig(organizationId: "org-1", authProxyConfigId: "config-1")
        #expect(sdkOrder.apiUrl == "https://api.turnkey.com" && sdkOrder.authProxyUrl == "https://authproxy.turnkey.com")
    }

    @Test func aConfigurationWithoutAnAppSchemeIsRefusedByEveryCall() async throws {
        let f = F()
        let context = f.context(F.seedPageConfig(auth: .init(oauth: .init(providers: .init()))))
        await context.waitUntilReady()
        #expect(context.authState == .unAuthenticated)
        await #expect(throws: TurnkeyAuthError.invalidConfiguration(field: "appScheme", problem: "notACustomScheme")) {
            try await context.handleGoogleOAuth(anchor: FakeAnchor())
        }
        #expect(f.browser.openedURLs.isEmpty && f.transport.requests.isEmpty)
    }

    @Test(arguments: TurnkeyProvider.allCases)
    func aSignInOpensTheBrowserFromTheAnchorAndBecomesTheState(provider: TurnkeyProvider) async throws {
        let f = F()
        let context = f.context()
        let anchor = FakeAnchor(handle: "x11:5a00004")
        switch provider.signInProvider {
        case .google: try await context.handleGoogleOAuth(anchor: anchor)
        case .apple: try await context.handleAppleOAuth(anchor: anchor, clientId: "emulator-turnkey-apple")
        case .discord: try await context.handleDiscordOAuth(anchor: anchor)
        case .x: try await context.handleXOauth(anchor: anchor)
        }
        #expect(f.browser.parentWindows == ["x11:5a00004"])
        await f.until(context) { !$0.wallets.isEmpty }
        #expect(context.authState == .authenticated)
        #expect(context.selectedSessionKey == "default")
        #expect(context.session?.organizationId == "sub-org-1")
        #expect(context.user?.userName == "Alice")
        #expect(context.wallets.map(\.walletName) == ["Default"])
        #expect(context.wallets.first?.accounts.map(\.address) == ["0x00000000000000000000000000000000000000aa"])
        let signup = try #require(f.signups.first)
        #expect((signup["oauthProviders"] as? [[String: Any]])?.last?["providerName"] as? String == provider.providerName)
    }

    @Test func aSignInFromAWindowThatIsGoneIsUnavailableAndOpensNothing() async throws {
        let f = F()
        let context = f.context()
        let anchor = FakeAnchor()
        anchor.close()
        await #expect(throws: TurnkeySignInError.unavailable) { try await context.handleGoogleOAuth(anchor: anchor) }
        #expect(f.browser.openedURLs.isEmpty)
        #expect(f.keys.items.items.isEmpty, "no key was made for a sign-in that never started")
        #expect(context.authState == .unAuthenticated)
    }

    @Test func onOAuthSuccessHandsTheTokenOverAndCompleteOAuthStoresItUnderTheGivenKey() async throws {
        let f = F()
        let context = f.context()
        let received = Box<OAuthSuccess?>(nil)
        try await context.handleGoogleOAuth(anchor: FakeAnchor(), sessionKey: "main") { success in
            received.withLock { $0 = success }
        }
        let success = try #require(received.current)
        #expect(context.session == nil && f.sessions.items.items.isEmpty)
        let result = try await context.completeOAuth(oidcToken: success.oidcToken, publicKey: success.publicKey, sessionKey: "main")
        #expect(result.session.sessionKey == "main" && result.action == .signup)
        #expect(context.session == result.session)
    }

    @Test func theSeedPagesOnOAuthSuccessExampleRunsAsWritten() async throws {
        let f = F()
        let turnkey = f.context()
        let anchor = FakeAnchor()
        // As on the page ("Advanced: onOAuthSuccess callback"), the anchor from `defaultAnchor()`.
        try await turnkey.handleGoogleOAuth(
            anchor: anchor,
            sessionKey: "main",
            onOAuthSuccess: { success in
                // success.oidcToken, success.publicKey, success.providerName
                Task {
                    _ = try await turnkey.completeOAuth(
                        oidcToken: success.oidcToken,
                        publicKey: success.publicKey,
                        sessionKey: "main"
                    )
                }
            }
        )
        await f.until(turnkey) { $0.session?.sessionKey == "main" }
        #expect(turnkey.authState == .authenticated)
        #expect(try await turnkey.auth?.session(sessionKey: "main") != nil, "result.session is stored automatically")
    }

    @Test func createSubOrgParamsShapeTheSignupAsTheSwaggerSays() async throws {
        let wallet = v1WalletParams(
            accounts: [
                v1WalletAccountParams(
                    addressFormat: .address_format_ethereum, curve: .curve_secp256k1, path: "m/44'/60'/0'/0/0",
                    pathFormat: .path_format_bip32)
            ], walletName: "Main")
        let configured = CreateSubOrgParams(userName: "Configured", subOrgName: "Configured org", customWallet: wallet)
        let f = F()
        var config = F.seedPageConfig()
        config.auth?.createSuborgParams = .init(oauth: configured)
        let context = f.context(config)
        try await context.handleGoogleOAuth(anchor: FakeAnchor())

        let body = try #require(f.signups.first)
        #expect(
            Set(body.keys) == ["apiKeys", "authenticators", "oauthProviders", "organizationName", "userName", "wallet"],
            "no userEmail the SDK would not send")
        #expect(body["organizationName"] as? String == "Configured org" && body["userName"] as? String == "Configured")
        let sentWallet = try #require(body["wallet"] as? [String: Any])
        #expect(sentWallet["walletName"] as? String == "Main" && sentWallet["mnemonicLength"] == nil)
        #expect(
            sentWallet["accounts"] as? [[String: String]] == [
                [
                    "curve": "CURVE_SECP256K1", "pathFormat": "PATH_FORMAT_BIP32", "path": "m/44'/60'/0'/0/0",
                    "addressFormat": "ADDRESS_FORMAT_ETHEREUM"
                ]
            ])

        // A call's own parameters replace the configured ones.
        f.knownUser.withLock { $0 = false }
        let key = try await context.createKeyPair()
        try await context.completeOAuth(
            oidcToken: TK.oidcToken(nonce: TK.nonce(key), sub: "google-sub-2"), publicKey: key,
            createSubOrgParams: CreateSubOrgParams(userEmail: "bob@example.com", userTag: "tag-1"), sessionKey: "bob")
        let second = try #require(f.signups.last)
        #expect(second["userName"] as? String == "bob@example.com" && second["userEmail"] as? String == "bob@example.com")
        #expect(second["userTag"] as? String == "tag-1" && second["wallet"] == nil)
        #expect(second["organizationName"] as? String == "sub-org-1800000000")
    }

    @Test func perCallSecondaryClientIdsReplaceTheConfiguredOnesEvenWhenEmpty() async throws {
        let f = F()
        var config = F.seedPageConfig()
        config.auth?.oauth?.providers?.google?.secondaryClientIds = ["configured-secondary"]
        let context = f.context(config)
        try await context.handleGoogleOAuth(anchor: FakeAnchor(), secondaryClientIds: [])
        #expect((f.signups.first?["oauthProviders"] as? [Any])?.count == 1)

        await context.clearSession()
        f.knownUser.withLock { $0 = false }
        try await context.handleGoogleOAuth(anchor: FakeAnchor(), secondaryClientIds: ["call-secondary"])
        let providers = try #require(f.signups.last?["oauthProviders"] as? [[String: Any]])
        #expect((providers.first?["oidcClaims"] as? [String: String])?["aud"] == "call-secondary")
        #expect(providers.count == 2)

        // Without a per-call list the configured one is registered.
        await context.clearSession()
        f.knownUser.withLock { $0 = false }
        try await context.handleGoogleOAuth(anchor: FakeAnchor())
        let configured = try #require(f.signups.last?["oauthProviders"] as? [[String: Any]])
        #expect((configured.first?["oidcClaims"] as? [String: String])?["aud"] == "configured-secondary")

        // completeOAuth registers none, as the SDK's: only the handlers add secondary client IDs.
        await context.clearSession()
        f.knownUser.withLock { $0 = false }
        let key = try await context.createKeyPair()
        try await context.completeOAuth(oidcToken: TK.oidcToken(for: key), publicKey: key, providerName: "google")
        #expect((f.signups.last?["oauthProviders"] as? [Any])?.count == 1)
    }

    @Test func aTokenFromYourOwnFlowBoundToACreatedKeyCompletesAndOneForAnotherKeyIsRefusedBeforeAnythingIsSent() async throws {
        let f = F()
        let context = f.context()
        let key = try await context.createKeyPair()
        #expect(f.keys.items.items[key] != nil, "the private key waits in the key store")
        let nonce = try await context.nonce(forPublicKey: key)
        #expect(nonce == TK.nonce(key))

        let other = try await context.createKeyPair()
        await #expect(throws: TurnkeyAuthError.nonceMismatch) {
            try await context.completeOAuth(oidcToken: TK.oidcToken(nonce: TK.nonce(other)), publicKey: key)
        }
        #expect(f.transport.requests.isEmpty, "nothing was sent for a token bound to another key")

        let token = TK.oidcToken(nonce: nonce, iss: "https://issuer.example.com", aud: "my-app", sub: "someone")
        let result = try await context.completeOAuth(oidcToken: token, publicKey: key, providerName: "Example OIDC")
        #expect(result.action == .signup && context.session?.publicKey == key)
        let providers = try #require(f.signups.first?["oauthProviders"] as? [[String: Any]])
        #expect(providers.map { $0["providerName"] as? String } == ["Example OIDC"])
    }

    @Test func theSessionIsRefreshedJustBeforeItExpires() async throws {
        let f = F()
        let context = f.context()
        try await context.handleGoogleOAuth(anchor: FakeAnchor())
        let first = try #require(context.session)
        await f.clock.waitUntilSleeping()
        f.clock.advance(seconds: 894)
        #expect(f.transport.requests(to: F.api + "/public/v1/submit/stamp_login").isEmpty, "not yet: 6 seconds are left")

        f.clock.advance(seconds: 1)
        await f.until(context) { $0.session?.publicKey != first.publicKey }
        let refreshed = try #require(context.session)
        #expect(refreshed.sessionKey == "default" && refreshed.expiresAt > first.expiresAt)
        let stamp = try #require(f.transport.requests(to: F.api + "/public/v1/submit/stamp_login").first)
        #expect((stamp.jsonBody["parameters"] as? [String: Any])?["expirationSeconds"] as? String == "900")
        #expect(f.keys.items.items[first.publicKey] == nil, "the old key is gone")
        #expect(context.authState == .authenticated)
    }

    @Test func aFailedRefreshClearsTheSession() async throws {
        let f = F()
        let context = f.context()
        try await context.handleGoogleOAuth(anchor: FakeAnchor())
        await f.until(context) { !$0.wallets.isEmpty }
        f.refusesRefresh.withLock { $0 = true }
        await f.clock.waitUntilSleeping()
        f.clock.advance(seconds: 896)
        await f.until(context) { $0.authState == .unAuthenticated }
        #expect(context.session == nil && context.user == nil && context.wallets.isEmpty)
        #expect(f.sessions.items.items.isEmpty && f.keys.items.items.isEmpty)
    }

    @Test func withAutoRefreshOffTheSessionIsClearedJustBeforeItExpires() async throws {
        let f = F()
        var config = F.seedPageConfig()
        config.auth?.autoRefreshSession = false
        let context = f.context(config)
        try await context.handleGoogleOAuth(anchor: FakeAnchor())
        await f.clock.waitUntilSleeping()
        f.clock.advance(seconds: 896)
        await f.until(context) { $0.authState == .unAuthenticated }
        #expect(f.transport.requests(to: F.api + "/public/v1/submit/stamp_login").isEmpty)
        #expect(f.sessions.items.items.isEmpty)
    }

    @Test func aSessionWithNoMoreThanFiveSecondsLeftIsClearedAtOnceNotRefreshed() async throws {
        let f = F()
        let context = f.context()
        await context.waitUntilReady()
        let key = try await context.createKeyPair()
        try await context.storeSession(jwt: TK.sessionJwt(publicKey: key, expiresAt: f.clock.now.addingTimeInterval(4)))
        await f.until(context) { $0.authState == .unAuthenticated }
        #expect(f.sessions.items.items.isEmpty)
        #expect(f.transport.requests(to: F.api + "/public/v1/submit/stamp_login").isEmpty)
    }

    @Test func refreshSessionAndStoreSessionFollowTheSDK() async throws {
        let f = F()
        let context = f.context()
        try await context.handleGoogleOAuth(anchor: FakeAnchor())
        try await context.refreshSession(expirationSeconds: "3600", invalidateExisting: true)
        let parameters = try #require(
            f.transport.requests(to: F.api + "/public/v1/submit/stamp_login").first?.jsonBody["parameters"] as? [String: Any])
        #expect(parameters["expirationSeconds"] as? String == "3600" && parameters["invalidateExisting"] as? Bool == true)

        let key = try await context.createKeyPair()
        let jwt = TK.sessionJwt(publicKey: key, expiresAt: f.clock.now.addingTimeInterval(600))
        await #expect(throws: TurnkeyAuthError.invalidArgument(name: "refreshedSessionTTLSeconds")) {
            try await context.storeSession(jwt: jwt, sessionKey: "side", refreshedSessionTTLSeconds: "29")
        }
        try await context.storeSession(jwt: jwt, sessionKey: "side", refreshedSessionTTLSeconds: "30")
        #expect(context.selectedSessionKey == "default", "the first session stays the active one")
        await #expect(throws: TurnkeyAuthError.keyAlreadyExists(sessionKey: "side")) {
            try await context.storeSession(jwt: jwt, sessionKey: "side")
        }
        let stranger = TK.sessionJwt(publicKey: "02" + String(repeating: "11", count: 32), expiresAt: f.clock.now.addingTimeInterval(600))
        await #expect(throws: TurnkeyAuthError.keyNotFound(publicKey: "02" + String(repeating: "11", count: 32))) {
            try await context.storeSession(jwt: stranger, sessionKey: "stranger")
        }
    }

    @Test func aRestartRestoresTheSessionWithItsUserAndWallets() async throws {
        let f = F()
        let first = f.context()
        try await first.handleGoogleOAuth(anchor: FakeAnchor())
        let session = try #require(first.session)

        let restarted = f.context()
        await restarted.waitUntilReady()
        await f.until(restarted) { !$0.wallets.isEmpty }
        #expect(restarted.authState == .authenticated && restarted.session == session)
        #expect(restarted.user?.userId == "user-1")
    }
}
