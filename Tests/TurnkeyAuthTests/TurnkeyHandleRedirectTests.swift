import AuthTestSupport
import Foundation
import Testing

@testable import TurnkeyAuth

@Suite("handleRedirect: which callbacks are ours, state, nonce and the code exchange", .timeLimit(.minutes(1)))
struct TurnkeyHandleRedirectTests {
    @Test func urlsThatAreNotTurnkeyCallbacksAreNotOurs() async throws {
        let f = try TurnkeyCoreFixture()
        for url in [
            "", "io.github.portalauth.signin://auth/callback?token=\(Secrets.grant)&login_type=GOOGLE",
            "io.github.portalauth.signin://auth/callback?error=oauth_failed&state=x",
            "other.app://?id_token=\(Secrets.oidcToken)&state=s", "https://example.com/?code=c&state=s",
            "io.github.portalauth.signin://", "io.github.portalauth.signin://?state=only",
            TurnkeyCoreFixture.appRedirect + "?code=c&state=s&pad=" + String(repeating: "a", count: 8200)
        ] {
            #expect(try await f.auth.handleRedirect(url) == nil)
        }
        #expect(f.transport.requests.isEmpty)
        #expect(f.pending.items.operations.isEmpty, "not even a lookup")
    }

    /// The bound counts UTF-16 units, as PortalAuth's does: 8192 units of two-byte characters (8292
    /// bytes) are still a callback (one with a state nobody started), 8193 units in 8192 Characters are not.
    @Test func theLengthBoundCountsUTF16Units() async throws {
        let f = try TurnkeyCoreFixture()
        let base = TurnkeyCoreFixture.appRedirect + "?error=denied&state=unknown&pad=" + String(repeating: "\u{E9}", count: 100)
        let exactly = base + String(repeating: "a", count: 8192 - base.utf16.count)
        #expect(exactly.utf16.count == 8192 && exactly.utf8.count == 8292)
        await #expect(throws: TurnkeyAuthError.unknownState) { try await f.auth.handleRedirect(exactly) }
        let emoji = TurnkeyCoreFixture.appRedirect + "?error=denied&state=unknown&pad=\u{1F600}"
        let over = emoji + String(repeating: "a", count: 8193 - emoji.utf16.count)
        #expect(over.utf16.count == 8193 && over.count == 8192)
        #expect(try await f.auth.handleRedirect(over) == nil)
        #expect(f.transport.requests.isEmpty)
    }

    @Test func aCallbackWithAnUnknownStateIsRefusedAndNothingIsSent() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.google)
        let token = TK.oidcToken(for: login.publicKey)
        for url in [
            TurnkeyCoreFixture.idTokenCallback(token, state: "forged-state"), TurnkeyCoreFixture.appRedirect + "?id_token=\(token)",
            TurnkeyCoreFixture.appRedirect + "?code=\(Secrets.providerCode)&state=", TurnkeyCoreFixture.codeCallback(state: "guess"),
            TurnkeyCoreFixture.appRedirect + "?error=access_denied&state=unknown"
        ] {
            await #expect(throws: TurnkeyAuthError.unknownState) { try await f.auth.handleRedirect(url) }
        }
        #expect(f.transport.paths == ["/turnkey/auth-proxy/v1/wallet_kit_config"], "nothing beyond loginURL's request")
        #expect(f.pending.records[login.state] != nil, "the real sign-in is untouched")
        #expect(f.sessions.items.items.isEmpty)
    }

    @Test func aProviderErrorWithAKnownStateEndsThatSignIn() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.discord)
        await #expect(throws: TurnkeyAuthError.providerError(.discord, error: "access_denied")) {
            try await f.auth.handleRedirect(TurnkeyCoreFixture.appRedirect + "?error=access_denied&state=\(login.state)")
        }
        #expect(f.pending.items.items.isEmpty && f.keys.publicKeys.isEmpty)
        #expect(f.transport.paths.count == 1)
        // It is over: the same state is now unknown.
        await #expect(throws: TurnkeyAuthError.unknownState) {
            try await f.auth.handleRedirect(TurnkeyCoreFixture.codeCallback(state: login.state))
        }
    }

    @Test func theProviderErrorIsBoundedAndRedacted() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.google)
        do {
            _ = try await f.auth.handleRedirect(
                TurnkeyCoreFixture.appRedirect + "?error=\(String(repeating: "y", count: 300))+\(Secrets.oidcToken)&state=\(login.state)")
            Issue.record("expected a provider error")
        } catch TurnkeyAuthError.providerError(.google, let error) {
            #expect(error == String(repeating: "y", count: 100))
        }
    }

    @Test func aSecretInTheProviderErrorIsRedacted() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.google)
        await #expect(throws: TurnkeyAuthError.providerError(.google, error: "denied [redacted]")) {
            try await f.auth.handleRedirect(TurnkeyCoreFixture.appRedirect + "?error=denied+\(Secrets.grant)&state=\(login.state)")
        }
    }

    @Test func googleSignsInWithTheIdTokenOfTheRedirectPage() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.google)
        let token = TK.oidcToken(for: login.publicKey)
        f.transport.reply(TK.account("sub-org-1"))
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: login.publicKey)))
        let result = try #require(try await f.auth.handleRedirect(TurnkeyCoreFixture.idTokenCallback(token, state: login.state))?.completed)
        #expect(result.action == .login)
        #expect(result.session.publicKey == login.publicKey)
        #expect(f.transport.paths.dropFirst() == ["/turnkey/auth-proxy/v1/account", "/turnkey/auth-proxy/v1/oauth_login"])
        let sentToken = f.transport.requests[1].jsonBody["filterValue"] as? String == token
        #expect(sentToken)
        #expect(f.pending.items.items.isEmpty, "the finished sign-in is no longer pending")
        #expect(f.keys.publicKeys == [login.publicKey], "the key now belongs to the session")
    }

    @Test func anIdTokenBoundThroughTknonceSignsIn() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.google)
        let token = TK.oidcToken(nonce: TK.nonce(Secrets.publicKeyHex), tknonce: TK.nonce(login.publicKey))
        f.transport.reply(TK.account("sub-org-1"))
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: login.publicKey)))
        let result = try #require(try await f.auth.handleRedirect(TurnkeyCoreFixture.idTokenCallback(token, state: login.state))?.completed)
        #expect(result.session.publicKey == login.publicKey)
        #expect(f.transport.paths.dropFirst() == ["/turnkey/auth-proxy/v1/account", "/turnkey/auth-proxy/v1/oauth_login"])
    }

    @Test func anIdTokenForAnotherKeyIsRefusedBeforeAnythingIsSent() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.apple)
        let wrong = [
            TK.oidcToken(nonce: TK.nonce(Secrets.publicKeyHex)), TK.oidcToken(nonce: nil),
            TK.oidcToken(nonce: TK.nonce(login.publicKey).uppercased()),
            TK.oidcToken(nonce: TK.nonce(Secrets.publicKeyHex), tknonce: TK.nonce(Secrets.publicKeyHex))
        ]
        for token in wrong {
            await #expect(throws: TurnkeyAuthError.nonceMismatch) {
                try await f.auth.handleRedirect(TurnkeyCoreFixture.idTokenCallback(token, state: login.state))
            }
        }
        await #expect(throws: TurnkeyAuthError.invalidOidcToken(detail: "The OIDC token is not a JWT with readable claims.")) {
            try await f.auth.handleRedirect(TurnkeyCoreFixture.idTokenCallback("not-a-jwt", state: login.state))
        }
        #expect(f.transport.paths.count == 1)
        #expect(f.pending.records[login.state] != nil)
    }

    @Test(arguments: [(TurnkeyProvider.discord, "OAUTH2_PROVIDER_DISCORD"), (.x, "OAUTH2_PROVIDER_X")])
    func aPKCECodeIsExchangedWithTheVerifierThenSignsIn(provider: TurnkeyProvider, wireName: String) async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(provider)
        let verifier = try #require(f.pending.records[login.state]?["codeVerifier"] as? String)
        let token = TK.oidcToken(for: login.publicKey, sub: "\(provider.rawValue):42")
        f.transport.reply(TK.oauth2(token))
        f.transport.reply(TK.account(nil))
        f.transport.reply(TK.signedUp)
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: login.publicKey)))
        let result = try #require(try await f.auth.handleRedirect(TurnkeyCoreFixture.codeCallback(state: login.state))?.completed)
        #expect(result.action == .signup)

        let exchange = f.transport.requests[1]
        #expect(exchange.url.path == "/turnkey/auth-proxy/v1/oauth2_authenticate")
        let body = exchange.jsonBody
        #expect(Set(body.keys) == ["authCode", "clientId", "codeVerifier", "nonce", "provider", "redirectUri"])
        let sentCode = body["authCode"] as? String == Secrets.providerCode
        let sentVerifier = body["codeVerifier"] as? String == verifier
        #expect(sentCode && sentVerifier)
        #expect(body["clientId"] as? String == "emulator-turnkey-\(provider.rawValue)")
        #expect(body["nonce"] as? String == TK.nonce(login.publicKey))
        #expect(body["provider"] as? String == wireName)
        #expect(body["redirectUri"] as? String == "io.github.portalauth.signin://")
        let signup = f.transport.requests[3].jsonBody
        let providers = signup["oauthProviders"] as? [[String: Any]]
        #expect(providers?.last?["providerName"] as? String == provider.providerName)
    }

    @Test func aCallbackDeliveredTwiceSpendsTheCodeOnceAndReplaysTheSession() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.x)
        let callback = TurnkeyCoreFixture.codeCallback(state: login.state)
        f.transport.reply(TK.oauth2(TK.oidcToken(for: login.publicKey)))
        f.transport.reply(TK.account("sub-org-1"))
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: login.publicKey)))
        async let first = f.auth.handleRedirect(callback)
        async let second = f.auth.handleRedirect(callback)
        let results = try await [first, second]
        #expect(results[0] != nil && results[0] == results[1])
        #expect(f.transport.paths.filter { $0.hasSuffix("oauth2_authenticate") }.count == 1)
        #expect(f.transport.paths.filter { $0.hasSuffix("oauth_login") }.count == 1)
    }

    @Test func aFailureAfterTheCodeWasSpentIsFinishedByTheRedeliveryWithoutSpendingItAgain() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.discord)
        let callback = TurnkeyCoreFixture.codeCallback(state: login.state)
        f.transport.reply(TK.oauth2(TK.oidcToken(for: login.publicKey)))
        f.transport.enqueue(.fail(TransportError(.connectionLost, host: "127.0.0.1")))
        await #expect(throws: TransportError(.connectionLost, host: "127.0.0.1")) { try await f.auth.handleRedirect(callback) }
        #expect(f.sessions.items.items.isEmpty)

        f.transport.reply(TK.account("sub-org-1"))
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: login.publicKey)))
        #expect(try await f.auth.handleRedirect(callback)?.completed != nil)
        #expect(f.transport.paths.filter { $0.hasSuffix("oauth2_authenticate") }.count == 1)
        #expect(f.sessions.jwt() != nil)
    }

    @Test func aRefusedCodeIsAnErrorAndTheSignInCanBeRetried() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.discord)
        f.transport.reply(400, TK.error(3, "invalid code_verifier \(Secrets.pkceVerifier)"))
        do {
            _ = try await f.auth.handleRedirect(TurnkeyCoreFixture.codeCallback(state: login.state))
            Issue.record("expected a rejection")
        } catch TurnkeyRequestError.rejected(let status, let path, let code, let message) {
            #expect(status == 400 && path == "/v1/oauth2_authenticate" && code == 3)
            #expect(message == "invalid code_verifier [redacted]")
        }
        #expect(f.pending.records[login.state] != nil)
    }

    @Test func aCallbackWithoutWhatItsProviderSendsIsIncomplete() async throws {
        let f = try TurnkeyCoreFixture()
        let google = try await f.startSignIn(.google)
        await #expect(throws: TurnkeyAuthError.callbackIncomplete(.google, missing: "id_token")) {
            try await f.auth.handleRedirect(TurnkeyCoreFixture.codeCallback(state: google.state))
        }
        let discord = try await f.startSignIn(.discord)
        await #expect(throws: TurnkeyAuthError.callbackIncomplete(.discord, missing: "code")) {
            try await f.auth.handleRedirect(TurnkeyCoreFixture.idTokenCallback(TK.oidcToken(for: discord.publicKey), state: discord.state))
        }
        #expect(f.transport.paths.count == 1)
    }

    @Test func aSignInOlderThanAnHourHasExpired() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.google)
        f.advance(seconds: 3600)
        await #expect(throws: TurnkeyAuthError.signInExpired(.google)) {
            try await f.auth.handleRedirect(TurnkeyCoreFixture.idTokenCallback(TK.oidcToken(for: login.publicKey), state: login.state))
        }
        #expect(f.pending.items.items.isEmpty && f.keys.publicKeys.isEmpty)
        #expect(f.transport.paths.count == 1)
    }

    @Test func aTakenSessionKeyIsReportedBeforeTheCodeIsSpent() async throws {
        let f = try TurnkeyCoreFixture()
        try await f.signIn(.google, sessionKey: "work")
        let login = try await f.startSignIn(.discord)
        let requestsBefore = f.transport.requests.count
        await #expect(throws: TurnkeyAuthError.keyAlreadyExists(sessionKey: "work")) {
            try await f.auth.handleRedirect(TurnkeyCoreFixture.codeCallback(state: login.state), sessionKey: "work")
        }
        #expect(f.transport.requests.count == requestsBefore)
        #expect(f.pending.records[login.state] != nil, "the sign-in can still finish under another key")
    }

    @Test func onOAuthSuccessGetsTheTokenStoresNothingAndSpendsTheState() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.google)
        let token = TK.oidcToken(for: login.publicKey)
        let received = Box<OAuthSuccess?>(nil)
        let result = try await f.auth.handleRedirect(TurnkeyCoreFixture.idTokenCallback(token, state: login.state)) { success in
            received.withLock { $0 = success }
        }
        let success = try #require(result?.oauthSuccess)
        #expect(received.current == success)
        expectSameSecret(success.oidcToken, token, "the handed-over token")
        #expect(success.providerName == "google" && success.publicKey == login.publicKey)
        #expect(f.sessions.items.items.isEmpty)
        #expect(f.transport.paths.count == 1)
        #expect(f.pending.records[login.state]?["redeemed"] as? Bool == true)
        #expect(f.keys.publicKeys == [login.publicKey], "the key waits for completeOAuth")

        // Another process (a new instance) cannot use the spent state.
        let other = try TurnkeyAuth(
            configuration: TurnkeyCoreFixture.configuration(), transport: f.transport,
            stores: TurnkeyStores(sessions: f.sessions, keys: f.keys, pending: f.pending), crypto: f.crypto)
        await #expect(throws: TurnkeyAuthError.unknownState) {
            try await other.handleRedirect(TurnkeyCoreFixture.idTokenCallback(token, state: login.state))
        }
    }

    @Test func aCallerTakingTheTokenStillGetsOnlyATokenBoundToTheKey() async throws {
        // With onOAuthSuccess nothing else checks the nonce later: the callback must.
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.google)
        let handedOver = Box(false)
        await #expect(throws: TurnkeyAuthError.nonceMismatch) {
            try await f.auth.handleRedirect(
                TurnkeyCoreFixture.idTokenCallback(TK.oidcToken(nonce: TK.nonce(Secrets.publicKeyHex)), state: login.state)
            ) { _ in
                handedOver.withLock { $0 = true }
            }
        }
        #expect(!handedOver.current)
        #expect(f.pending.records[login.state]?["redeemed"] as? Bool != true, "the state is not spent")
    }

    @Test func thePendingSignInSurvivesIntoAnotherInstance() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.discord)
        let later = try TurnkeyAuth(
            configuration: TurnkeyCoreFixture.configuration(), transport: f.transport,
            stores: TurnkeyStores(sessions: f.sessions, keys: f.keys, pending: f.pending), crypto: f.crypto)
        f.transport.reply(TK.oauth2(TK.oidcToken(for: login.publicKey)))
        f.transport.reply(TK.account("sub-org-1"))
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: login.publicKey)))
        #expect(try await later.handleRedirect(TurnkeyCoreFixture.codeCallback(state: login.state))?.completed?.action == .login)
    }

    @Test func portalsHandlerAndTurnkeysDoNotTakeEachOthersRedirects() async throws {
        let f = try TurnkeyCoreFixture()
        let portalRedirect = "io.github.portalauth.signin://auth/callback?token=\(Secrets.grant)&login_type=GOOGLE"
        #expect(f.auth.callback(in: portalRedirect) == nil)
        #expect(f.auth.callback(in: "IO.GITHUB.PORTALAUTH.SIGNIN://?code=c&state=s") != nil, "the scheme is case-insensitive")
        #expect(
            !URLText(TurnkeyCoreFixture.appRedirect + "?id_token=t&state=s").sameTarget(
                as: URLText("io.github.portalauth.signin://auth/callback")))
    }
}
