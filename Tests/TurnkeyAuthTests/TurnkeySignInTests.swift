import AuthTestSupport
import Foundation
import Testing

@testable import TurnkeyAuth

@Suite("handleOAuth and the SDK-named four: browser, the in-flight session, one at a time", .timeLimit(.minutes(1)))
struct TurnkeySignInTests {
    /// Makes the fake browser answer like a provider: the callback for the URL it was given.
    private func browserAnswers(_ f: TurnkeyCoreFixture, provider: TurnkeyProvider, before: [String] = []) {
        let desktop = f.desktop
        f.browser.onOpen { url in
            guard let state = url.query("state") else { return }
            for other in before { desktop.deliver(other) }
            if provider.usesPKCE {
                desktop.deliver(TurnkeyCoreFixture.codeCallback(state: state))
            } else {
                // The nonce in the URL is the key's: the token the provider mints carries it.
                desktop.deliver(TurnkeyCoreFixture.idTokenCallback(TK.oidcToken(nonce: url.query("nonce")), state: state))
            }
        }
    }

    /// Replies for a login, with a session for the key oauth_login names.
    private func replyLogin(_ f: TurnkeyCoreFixture, provider: TurnkeyProvider) {
        f.transport.reply(TK.walletKit())
        if provider.usesPKCE {
            f.transport.enqueue(
                .answer { request in
                    (200, TK.oauth2(TK.oidcToken(nonce: request.jsonBody["nonce"] as? String)))
                })
        }
        f.transport.reply(TK.account("sub-org-1"))
        f.transport.enqueue(
            .answer { request in
                (200, TK.session(TK.sessionJwt(publicKey: request.jsonBody["publicKey"] as? String ?? "")))
            })
    }

    @Test(arguments: TurnkeyProvider.allCases)
    func theWholeFlowOpensTheBrowserAndFinishesWithItsOwnCallback(provider: TurnkeyProvider) async throws {
        let f = try TurnkeyCoreFixture()
        browserAnswers(f, provider: provider)
        replyLogin(f, provider: provider)
        let result: TurnkeyRedirectResult
        switch provider.signInProvider {
        case .google: result = try await f.auth.handleGoogleOAuth(sessionKey: "flow")
        case .apple: result = try await f.auth.handleAppleOAuth(sessionKey: "flow")
        case .discord: result = try await f.auth.handleDiscordOAuth(sessionKey: "flow")
        case .x: result = try await f.auth.handleXOauth(sessionKey: "flow")
        }
        #expect(f.browser.openedURLs.count == 1)
        #expect(result.completed?.session.sessionKey == "flow")
        #expect(try await f.auth.session(sessionKey: "flow") != nil)
        #expect(f.pending.items.items.isEmpty)
    }

    @Test func otherURLsArrivingMeanwhileAreLeftAlone() async throws {
        let f = try TurnkeyCoreFixture()
        let portal = "io.github.portalauth.signin://auth/callback?token=\(Secrets.grant)&login_type=GOOGLE"
        let stranger = TurnkeyCoreFixture.idTokenCallback(Secrets.oidcToken, state: "someone-elses")
        browserAnswers(f, provider: .google, before: [portal, stranger])
        replyLogin(f, provider: .google)
        let result = try await f.auth.handleGoogleOAuth()
        #expect(result.completed != nil)
        #expect(f.transport.paths.count == 3, "wallet_kit_config, account, oauth_login: the strangers sent nothing")
    }

    @Test func onOAuthSuccessHandsTheTokenOverAndStoresNothing() async throws {
        let f = try TurnkeyCoreFixture()
        browserAnswers(f, provider: .x)
        f.transport.reply(TK.walletKit())
        f.transport.enqueue(.answer { request in (200, TK.oauth2(TK.oidcToken(nonce: request.jsonBody["nonce"] as? String))) })
        let received = Box<OAuthSuccess?>(nil)
        let result = try await f.auth.handleXOauth { success in received.withLock { $0 = success } }
        #expect(result.oauthSuccess != nil && received.current == result.oauthSuccess)
        #expect(received.current?.providerName == "twitter")
        #expect(f.sessions.items.items.isEmpty)
    }

    @Test func withoutABrowserTheFlowIsUnavailable() async throws {
        let f = try TurnkeyCoreFixture(withBrowser: false)
        await #expect(throws: TurnkeySignInError.unavailable) { try await f.auth.handleGoogleOAuth() }
        #expect(f.transport.requests.isEmpty && f.keys.publicKeys.isEmpty)
    }

    @Test func aBrowserThatWillNotOpenEndsTheSignIn() async throws {
        let f = try TurnkeyCoreFixture()
        f.browser.onOpen { _ in throw BrowserMissing() }
        f.transport.reply(TK.walletKit())
        await #expect(throws: TurnkeySignInError.unavailable) { try await f.auth.handleDiscordOAuth() }
        #expect(f.pending.items.items.isEmpty && f.keys.publicKeys.isEmpty)
    }

    @Test func oneSignInAtATimeAndCancellingEndsIt() async throws {
        let f = try TurnkeyCoreFixture()
        f.transport.reply(TK.walletKit())
        let task = Task { try await f.auth.handleAppleOAuth() }
        await f.browser.opened.wait()
        await #expect(throws: TurnkeySignInError.signInInProgress) { try await f.auth.handleGoogleOAuth() }
        task.cancel()
        await #expect(throws: TurnkeySignInError.closed) { try await task.value }
        #expect(f.pending.items.items.isEmpty && f.keys.publicKeys.isEmpty, "the abandoned sign-in leaves nothing")
        #expect(await eventually { !f.desktop.isWaiting })
    }

    /// The app hands every URL to the in-flight session: only this sign-in's callback is taken.
    @Test func theSessionTakesOnlyItsOwnCallback() async throws {
        let f = try TurnkeyCoreFixture()
        replyLogin(f, provider: .discord)
        let task = Task { try await f.auth.handleOAuth(for: .discord, sessionKey: "flow") }
        await f.browser.opened.wait()
        let state = try #require(f.browser.openedURLs.last?.query("state"))
        #expect(!f.desktop.deliver(TurnkeyCoreFixture.codeCallback(state: "another-sign-in")))
        #expect(!f.desktop.deliver("io.github.portalauth.signin://auth/callback?token=\(Secrets.grant)&login_type=GOOGLE"))
        #expect(f.desktop.deliver(TurnkeyCoreFixture.codeCallback(state: state)))
        #expect(!f.desktop.deliver(TurnkeyCoreFixture.codeCallback(state: state)), "a second copy was taken too")
        #expect(try await task.value.completed?.session.sessionKey == "flow")
        #expect(!f.desktop.isWaiting)
    }

    /// Cancel in the app closes the session: the sign-in ends as closed and leaves no record or key.
    @Test func closingTheSessionEndsTheSignIn() async throws {
        let f = try TurnkeyCoreFixture()
        f.transport.reply(TK.walletKit())
        let task = Task { try await f.auth.handleOAuth(for: .x) }
        await f.browser.opened.wait()
        f.auth.browserSignIn?.close()
        await #expect(throws: TurnkeySignInError.closed) { try await task.value }
        #expect(await eventually { f.pending.items.items.isEmpty && f.keys.publicKeys.isEmpty })
    }

    /// Signing out of the session key a running sign-in would store under ends that sign-in; another key does not.
    @Test func signingOutOfItsSessionKeyEndsTheSignIn() async throws {
        let f = try TurnkeyCoreFixture()
        f.transport.reply(TK.walletKit())
        let task = Task { try await f.auth.handleOAuth(for: .discord, sessionKey: "flow") }
        await f.browser.opened.wait()
        try await f.auth.signOut(sessionKey: "other")
        #expect(f.desktop.isWaiting, "a sign-out of another session key ended the sign-in")
        try await f.auth.signOut(sessionKey: "flow")
        await #expect(throws: TurnkeySignInError.closed) { try await task.value }
    }

    @Test func aTakenSessionKeyIsReportedBeforeTheBrowserOpens() async throws {
        let f = try TurnkeyCoreFixture()
        try await f.signIn(sessionKey: "taken")
        await #expect(throws: TurnkeyAuthError.keyAlreadyExists(sessionKey: "taken")) {
            try await f.auth.handleGoogleOAuth(sessionKey: "taken")
        }
        #expect(f.browser.openedURLs.isEmpty)
    }
}
