import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

@Suite("signInWithGoogle / signInWithApple", .timeLimit(.minutes(1)))
struct PortalSignInTests {
    /// Makes the fake browser behave like the desktop: the provider redirects back at once.
    private func redirectOnOpen(_ f: PortalCoreFixture, _ uri: String = PortalCoreFixture.redirect(), delivered: Box<Bool>? = nil) {
        let desktop = f.desktop
        f.browser.onOpen { _ in
            let taken = desktop.deliver(uri)
            delivered?.withLock { $0 = taken }
        }
    }

    @Test func googleSignInOpensTheAuthorizeUrlAndCompletesTheRedirect() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        f.transport.reply(Wire.session())
        let delivered = Box(false)
        redirectOnOpen(f, delivered: delivered)

        let result = try #require(try await f.auth.signInWithGoogle().authenticated)
        #expect(result.session.endUserId == "eu_1")
        #expect(f.browser.openedURLs.map(\.absoluteString) == [Wire.googleAuthorize])
        #expect(f.transport.paths == ["/api/v3/auth/oauth/urls", "/api/v3/auth/oauth/tokens"])
        #expect(f.transport.requests.first?.query == "redirectUrl=io.github.portalauth.signin%3A%2F%2Fauth%2Fcallback")
        // Listening started before the browser opened, so the immediate redirect was taken.
        #expect(delivered.current)
        let saved = f.store.stored() == PortalCoreFixture.storedSecret()
        #expect(saved, "the session was not saved")
    }

    @Test func appleSignInOpensTheAppleUrl() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        f.transport.reply(Wire.session())
        redirectOnOpen(f, PortalCoreFixture.redirect(loginType: "APPLE"))
        _ = try await f.auth.signInWithApple()
        #expect(f.browser.openedURLs.map(\.absoluteString) == [Wire.appleAuthorize])
    }

    @Test func totpStepComesBackAsIs() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        f.transport.reply(Wire.totpStep())
        redirectOnOpen(f)
        #expect(try await f.auth.signInWithGoogle().totpStep?.endUserId == "eu_totp")
        #expect(f.store.saveCount == 0)
    }

    @Test func ephemeralPreferenceAsksForTheAccountChooser() async throws {
        let f = try PortalCoreFixture()
        f.auth.prefersEphemeralWebBrowserSession = true
        f.transport.reply(Wire.authorizeUrls)
        f.transport.reply(Wire.session())
        redirectOnOpen(f)
        _ = try await f.auth.signInWithGoogle()
        #expect(f.browser.openedURLs.map(\.absoluteString) == [Wire.googleAuthorize + "&prompt=select_account"])
    }

    @Test func ephemeralPreferenceIsReadAtTheStartOfTheCall() async throws {
        let f = try PortalCoreFixture()
        f.auth.prefersEphemeralWebBrowserSession = true
        let auth = f.auth
        f.transport.enqueue(.act({ auth.prefersEphemeralWebBrowserSession = false }, status: 200, body: Wire.authorizeUrls))
        f.transport.reply(Wire.session())
        redirectOnOpen(f)
        _ = try await f.auth.signInWithGoogle()
        #expect(f.browser.openedURLs.first?.absoluteString.hasSuffix("&prompt=select_account") == true)
    }

    @Test func withoutEphemeralPreferenceTheUrlIsOpenedUnchanged() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        f.transport.reply(Wire.session())
        redirectOnOpen(f)
        _ = try await f.auth.signInWithGoogle()
        #expect(f.browser.openedURLs.first?.absoluteString.contains("prompt=") == false)
    }

    @Test func accountChooserIsAppendedCorrectly() {
        #expect(PortalAuth.appendingAccountChooser(to: "https://x/a") == "https://x/a?prompt=select_account")
        #expect(PortalAuth.appendingAccountChooser(to: "https://x/a?b=1") == "https://x/a?b=1&prompt=select_account")
        #expect(PortalAuth.appendingAccountChooser(to: "https://x/a?b=1#f") == "https://x/a?b=1&prompt=select_account#f")
    }

    @Test(arguments: ["https://example.com/auth/callback", "http://localhost/cb"])
    func httpRedirectUrlIsUnavailable(redirectUrl: String) async throws {
        let f = try PortalCoreFixture(redirectUrl: redirectUrl)
        await #expect(throws: PortalAuthSignInError.unavailable) { try await f.auth.signInWithGoogle() }
        #expect(f.transport.requests.isEmpty)
        #expect(f.browser.openedURLs.isEmpty)
    }

    @Test func noBrowserIsUnavailable() async throws {
        let f = try PortalCoreFixture(withBrowser: false)
        await #expect(throws: PortalAuthSignInError.unavailable) { try await f.auth.signInWithApple() }
        #expect(f.transport.requests.isEmpty)
    }

    @Test func browserThatCannotOpenIsUnavailableAndReleasesTheSignIn() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        f.browser.onOpen { _ in throw BrowserMissing() }
        await #expect(throws: PortalAuthSignInError.unavailable) { try await f.auth.signInWithGoogle() }
        #expect(!f.desktop.isWaiting)
        // Not stuck in "in progress": the next attempt gets as far as the request.
        f.transport.reply(401, Wire.error401)
        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.oauthUrls)) { try await f.auth.signInWithGoogle() }
    }

    @Test func providerNotEnabledIsAuthMethodUnavailableAndNoBrowserOpens() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"data":{"google":"http://127.0.0.1:8790/idp/google/authorize?state=s"}}"#)
        await #expect(throws: PortalAuthError.authMethodUnavailable(.apple)) { try await f.auth.signInWithApple() }
        #expect(f.browser.openedURLs.isEmpty)
    }

    @Test func oneSignInAtATime() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        f.transport.reply(Wire.session())
        let first = Task { try await f.auth.signInWithGoogle() }
        await f.browser.opened.wait()
        await #expect(throws: PortalAuthSignInError.signInInProgress) { try await f.auth.signInWithApple() }
        await #expect(throws: PortalAuthSignInError.signInInProgress) { try await f.auth.signInWithGoogle() }
        #expect(f.desktop.deliver(PortalCoreFixture.redirect()))
        #expect(try await first.value.authenticated != nil)
        #expect(f.transport.requests.count == 2)
    }

    @Test func cancellingTheTaskIsClosedAndTheGrantIsNeverExchanged() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        let task = Task { try await f.auth.signInWithGoogle() }
        await f.browser.opened.wait()
        task.cancel()
        await #expect(throws: PortalAuthSignInError.closed) { try await task.value }
        // The redirect arriving afterwards is no longer taken by the sign-in.
        #expect(await eventually { !f.desktop.isWaiting })
        #expect(!f.desktop.deliver(PortalCoreFixture.redirect()))
        #expect(f.transport.paths == ["/api/v3/auth/oauth/urls"])
        #expect(f.store.saveCount == 0)
    }

    @Test func aCallbackWithoutAResultKeepsTheSignInWaitingAndSpendsNothing() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        let delivered = Box(false)
        let handedOver = Box(false)
        f.browser.onOpen { [desktop = f.desktop] _ in
            delivered.withLock { $0 = desktop.deliver("\(PortalCoreFixture.redirectUrl)?state=s1") }
            handedOver.withLock { $0 = true }
        }
        let task = Task { try await f.auth.signInWithGoogle() }
        await f.browser.opened.wait()
        #expect(await eventually { handedOver.current })
        #expect(!delivered.current, "the sign-in took a URL that is not its redirect")
        // Still waiting for its real redirect: only Cancel ends it.
        #expect(f.auth.pendingSignIn?.method == .oauth(.google))
        task.cancel()
        await #expect(throws: PortalAuthSignInError.closed) { try await task.value }
        #expect(f.transport.requests.count == 1)
    }

    @Test func providerCancelIsAuthenticationFailed() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        redirectOnOpen(f, "\(PortalCoreFixture.redirectUrl)?error=oauth_failed")
        await #expect(throws: PortalAuthError.authenticationFailed(error: "oauth_failed")) { try await f.auth.signInWithGoogle() }
        #expect(f.transport.requests.count == 1)
    }

    /// Cancel in the app: the session closes, the sign-in ends as closed and its record goes.
    @Test func cancelPendingSignInClosesTheRunningSignIn() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        let task = Task { try await f.auth.signInWithGoogle() }
        await f.browser.opened.wait()
        f.auth.cancelPendingSignIn()
        await #expect(throws: PortalAuthSignInError.closed) { try await task.value }
        #expect(f.auth.pendingSignIn == nil)
        #expect(!f.desktop.deliver(PortalCoreFixture.redirect()))
        #expect(f.transport.paths == ["/api/v3/auth/oauth/urls"])
    }

    /// A sign-out overtakes a browser sign-in still waiting: its redirect is never exchanged.
    @Test func signingOutClosesTheRunningSignIn() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        let task = Task { try await f.auth.signInWithGoogle() }
        await f.browser.opened.wait()
        try await f.auth.clearPersistedSession()
        await #expect(throws: PortalAuthSignInError.closed) { try await task.value }
        #expect(!f.desktop.deliver(PortalCoreFixture.redirect()))
        #expect(f.transport.paths == ["/api/v3/auth/oauth/urls"])
        #expect(f.store.saveCount == 0)
    }

    @Test func finishedSignInStopsListening() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        f.transport.reply(Wire.session())
        redirectOnOpen(f)
        _ = try await f.auth.signInWithGoogle()
        #expect(await eventually { !f.desktop.isWaiting })
        #expect(!f.desktop.deliver(PortalCoreFixture.magicLinkRedirect()))
    }

    @Test func callbackGoesThroughTheReplaySlotLikeHandleRedirect() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        f.transport.reply(Wire.authorizeUrls)
        let earlier = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.authenticated)
        redirectOnOpen(f)
        let viaSignIn = try #require(try await f.auth.signInWithGoogle().authenticated)
        #expect(viaSignIn.session === earlier.session)
        #expect(f.transport.paths == ["/api/v3/auth/oauth/tokens", "/api/v3/auth/oauth/urls"])
    }

    // MARK: The window a sign-in starts from

    @Test func withoutAnAnchorNothingIsSentOrOpened() async throws {
        let f = try PortalCoreFixture(withAnchor: false)
        f.transport.reply(Wire.authorizeUrls)
        await #expect(throws: PortalAuthSignInError.unavailable) { try await f.auth.signInWithGoogle() }
        await #expect(throws: PortalAuthSignInError.unavailable) { try await f.auth.signIn(with: .apple) }
        #expect(f.transport.requests.isEmpty, "Portal was asked for an authorize URL")
        #expect(f.browser.openedURLs.isEmpty, "a browser was opened")
    }

    @Test func theAnchorDoesNotKeepItsWindow() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        f.anchor.close()
        await #expect(throws: PortalAuthSignInError.unavailable) { try await f.auth.signInWithApple() }
        #expect(f.transport.requests.isEmpty, "Portal was asked for an authorize URL")
        #expect(f.browser.openedURLs.isEmpty, "a browser was opened")
    }

    @Test func aWindowClosedWhilePortalIsAskedOpensNothing() async throws {
        let f = try PortalCoreFixture()
        let anchor = f.anchor
        f.transport.enqueue(.act({ anchor.close() }, status: 200, body: Wire.authorizeUrls))
        await #expect(throws: PortalAuthSignInError.unavailable) { try await f.auth.signInWithGoogle() }
        #expect(f.browser.openedURLs.isEmpty, "a browser was opened for a window that is gone")
        // The sign-in is released, and another window can start the next one.
        let next = FakeAnchor(handle: "wayland:next")
        f.auth.setAuthPresentationAnchor(next)
        f.transport.reply(Wire.authorizeUrls)
        f.transport.reply(Wire.session())
        redirectOnOpen(f)
        #expect(try await f.auth.signInWithGoogle().authenticated != nil)
        #expect(f.browser.parentWindows == ["wayland:next"])
    }

    @Test func theBrowserIsOpenedForTheAnchorsWindow() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        f.transport.reply(Wire.session())
        redirectOnOpen(f)
        _ = try await f.auth.signInWithGoogle()
        #expect(f.browser.parentWindows == [f.anchor.handle])
    }
}
