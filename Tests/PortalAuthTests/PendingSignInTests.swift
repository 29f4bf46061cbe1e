import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

/// Only a sign-in this instance started can finish silently: the pending record, and what
/// `incomingRedirect` says about a URL before anything is sent.
@Suite("Pending sign-ins and solicited redirects", .timeLimit(.minutes(1)))
struct PendingSignInTests {
    @Test func aRedirectWithNoSignInStartedIsUnsolicited() throws {
        let f = try PortalCoreFixture()
        let incoming = try #require(f.auth.incomingRedirect(PortalCoreFixture.redirect()))
        #expect(incoming.method == .google)
        #expect(incoming.standing == .unsolicited && !incoming.isError)
        #expect(f.transport.requests.isEmpty)
    }

    @Test func urlsThatAreNotRedirectsForThisAppAreNil() throws {
        let f = try PortalCoreFixture()
        for url in [
            "https://example.com/?token=x&login_type=GOOGLE", "io.github.portalauth.signin://auth/other?token=x",
            "\(PortalCoreFixture.redirectUrl)?token=x", "\(PortalCoreFixture.redirectUrl)?login_type=GOOGLE", "",
            PortalCoreFixture.redirect() + String(repeating: "a", count: 8192)
        ] {
            #expect(f.auth.incomingRedirect(url) == nil, "\(url.prefix(60))")
        }
    }

    @Test func loginWithGoogleStartsARecordForGoogleOnly() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        _ = try await f.auth.loginWithGoogle()
        #expect(f.auth.pendingSignIn?.method == .oauth(.google))
        #expect(f.auth.incomingRedirect(PortalCoreFixture.redirect())?.standing == .awaited)
        #expect(f.auth.incomingRedirect(PortalCoreFixture.redirect(loginType: "APPLE"))?.standing == .unsolicited)
        #expect(f.auth.incomingRedirect(PortalCoreFixture.magicLinkRedirect())?.standing == .unsolicited)
    }

    @Test func aNewSignInReplacesTheOldRecord() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        f.transport.reply(Wire.authorizeUrls)
        _ = try await f.auth.loginWithGoogle()
        _ = try await f.auth.loginWithApple()
        #expect(f.auth.incomingRedirect(PortalCoreFixture.redirect())?.standing == .unsolicited)
        #expect(f.auth.incomingRedirect(PortalCoreFixture.redirect(loginType: "APPLE"))?.standing == .awaited)
    }

    @Test func sendMagicLinkStartsARecordThatKeepsTheAddressAndNoGrant() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"data":{"sent":true}}"#)
        try await f.auth.sendMagicLink("  Alice@Example.com ")
        let incoming = try #require(f.auth.incomingRedirect(PortalCoreFixture.magicLinkRedirect()))
        #expect(incoming.standing == .awaited && incoming.method == .emailMagicLink && incoming.email == "alice@example.com")
        #expect(f.pendingSignIns.load()?.method == .magicLink(email: "alice@example.com"))
    }

    @Test func theRecordIsUsedOnceButTheSameGrantStillReplays() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        f.transport.reply(Wire.session())
        _ = try await f.auth.loginWithGoogle()
        _ = try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        #expect(f.auth.pendingSignIn == nil)
        #expect(f.pendingSignIns.load() == nil)
        // The browser delivering the same redirect again is the sign-in just finished: still ours.
        #expect(f.auth.incomingRedirect(PortalCoreFixture.redirect())?.standing == .repeated)
        // Another grant is not.
        #expect(f.auth.incomingRedirect(PortalCoreFixture.redirect(grant: Secrets.otherGrant))?.standing == .unsolicited)
    }

    @Test func aRecordExpiresAfterFifteenMinutes() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        _ = try await f.auth.loginWithGoogle()
        f.advance(seconds: 14 * 60 + 59)
        #expect(f.auth.incomingRedirect(PortalCoreFixture.redirect())?.standing == .awaited)
        f.advance(seconds: 2)
        #expect(f.auth.incomingRedirect(PortalCoreFixture.redirect())?.standing == .unsolicited)
        #expect(f.auth.pendingSignIn == nil)
    }

    @Test func cancellingEndsTheRecord() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        _ = try await f.auth.loginWithGoogle()
        f.auth.cancelPendingSignIn()
        #expect(f.auth.incomingRedirect(PortalCoreFixture.redirect())?.standing == .unsolicited)
        #expect(f.pendingSignIns.load() == nil)
    }

    @Test func cancellingTheWaitingSignInTaskEndsItsRecord() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        let task = Task { try await f.auth.signInWithGoogle() }
        await f.browser.opened.wait()
        #expect(f.auth.incomingRedirect(PortalCoreFixture.redirect())?.standing == .awaited)
        task.cancel()
        await #expect(throws: PortalAuthSignInError.closed) { try await task.value }
        #expect(f.auth.incomingRedirect(PortalCoreFixture.redirect())?.standing == .unsolicited)
    }

    @Test func aRecordAnEarlierRunLeftNeverSolicits() async throws {
        let store = InMemoryPortalPendingSignInStore()
        let first = try PortalCoreFixture(pendingSignIns: store)
        first.transport.reply(Wire.authorizeUrls)
        _ = try await first.auth.loginWithApple()

        // The app quit, was killed or crashed while it waited; the next run finds the record.
        let restarted = try PortalCoreFixture(pendingSignIns: store)
        let incoming = try #require(restarted.auth.incomingRedirect(PortalCoreFixture.redirect(loginType: "APPLE")))
        #expect(incoming.method == .apple && !incoming.isError)
        #expect(incoming.standing == .earlierRun, "a redirect matching an earlier run's sign-in counts as asked for")
        #expect(restarted.auth.pendingSignIn == nil)
        #expect(restarted.transport.requests.isEmpty)
    }

    @Test func theQuestionCanSayWhatAnEarlierRunWaitedFor() async throws {
        let store = InMemoryPortalPendingSignInStore()
        let first = try PortalCoreFixture(pendingSignIns: store)
        first.transport.reply(Wire.authorizeUrls)
        _ = try await first.auth.loginWithApple()

        let restarted = try PortalCoreFixture(pendingSignIns: store)
        #expect(restarted.auth.incomingRedirect(PortalCoreFixture.redirect(loginType: "APPLE"))?.standing == .earlierRun)
        #expect(restarted.auth.incomingRedirect(PortalCoreFixture.redirect())?.standing != .earlierRun, "Google was not started")
        #expect(
            try PortalCoreFixture(environment: "other-env", pendingSignIns: store).auth
                .incomingRedirect(PortalCoreFixture.redirect(loginType: "APPLE"))?.standing != .earlierRun)
        restarted.advance(seconds: 16 * 60)
        #expect(restarted.auth.incomingRedirect(PortalCoreFixture.redirect(loginType: "APPLE"))?.standing != .earlierRun, "expired")
        // A sign-in of this run is solicited, and not "before a restart".
        restarted.transport.reply(Wire.authorizeUrls)
        _ = try await restarted.auth.loginWithApple()
        let own = try #require(restarted.auth.incomingRedirect(PortalCoreFixture.redirect(loginType: "APPLE")))
        #expect(own.standing == .awaited)
    }

    @Test func anEmailLinkAnEarlierRunSentIsUnsolicitedToo() async throws {
        let store = InMemoryPortalPendingSignInStore()
        let first = try PortalCoreFixture(pendingSignIns: store)
        first.transport.reply(#"{"data":{"sent":true}}"#)
        try await first.auth.sendMagicLink("alice@example.com")

        let restarted = try PortalCoreFixture(pendingSignIns: store)
        #expect(restarted.auth.incomingRedirect(PortalCoreFixture.magicLinkRedirect())?.standing == .earlierRun)
        // The question can still name the address the link went to.
        #expect(restarted.auth.incomingRedirect(PortalCoreFixture.magicLinkRedirect())?.email == "alice@example.com")
    }

    @Test func anErrorRedirectIsSolicitedOnlyWhileAProviderSignInWaits() async throws {
        let f = try PortalCoreFixture()
        let error = "\(PortalCoreFixture.redirectUrl)?error=oauth_failed"
        let unsolicited = try #require(f.auth.incomingRedirect(error))
        #expect(unsolicited.method == nil && unsolicited.isError && unsolicited.standing == .unsolicited && unsolicited.email == nil)
        f.transport.reply(Wire.authorizeUrls)
        _ = try await f.auth.loginWithGoogle()
        #expect(f.auth.incomingRedirect(error)?.standing == .awaited)
    }

    @Test func theWaitingSignInPassesOverURIsThatAreNotItsRedirect() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        f.transport.reply(Wire.session())
        let desktop = f.desktop
        f.browser.onOpen { _ in
            // Another app's link, a pasted mistake, a magic link and the other provider: all passed over.
            for uri in [
                "https://example.com/", "not a url at all", PortalCoreFixture.magicLinkRedirect(grant: Secrets.otherGrant),
                PortalCoreFixture.redirect(grant: Secrets.otherGrant, loginType: "APPLE"), PortalCoreFixture.redirect()
            ] {
                desktop.deliver(uri)
            }
        }
        let result = try #require(try await f.auth.signInWithGoogle().authenticated)
        #expect(result.session.endUserId == "eu_1")
        #expect(f.transport.paths == ["/api/v3/auth/oauth/urls", "/api/v3/auth/oauth/tokens"])
        #expect(f.transport.requests.last?.jsonBody["token"] as? String == Secrets.grant)
    }

    @Test(arguments: [
        "file:///etc/passwd", "smb://fileserver/share", "apt:install-me", "http://example.com/authorize",
        "https://user@evil.example@127.0.0.1/x", "javascript:alert(1)", "//no-scheme/x"
    ])
    func anAuthorizeURLThatIsNotAWebPageIsRefusedBeforeAnyBrowserStarts(url: String) async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"data":{"google":"\#(url)"}}"#)
        await #expect(throws: PortalAuthError.self) { try await f.auth.signInWithGoogle() }
        #expect(f.browser.openedURLs.isEmpty)
        #expect(f.auth.pendingSignIn == nil)
    }

    @Test(arguments: ["https://accounts.example.com/authorize?x=1", "http://127.0.0.1:8790/idp/google/authorize", "http://localhost/x"])
    func httpsOrLoopbackAuthorizeURLsAreOpened(url: String) async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"data":{"google":"\#(url)"}}"#)
        #expect(try await f.auth.loginWithGoogle().authorizeUrl == url)
    }

    @Test func theRefusalNamesTheScheme() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"data":{"google":"file:///etc/passwd"}}"#)
        await #expect(throws: PortalAuthError.unsafeAuthorizeUrl(scheme: "file")) { try await f.auth.loginWithGoogle() }
    }
}
