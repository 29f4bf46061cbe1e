import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

@Suite("Loopback redirect (RFC 8252 §7.3)", .timeLimit(.minutes(1)))
struct LoopbackRedirectTests {
    static let redirectUrl = "http://127.0.0.1:8791/auth/callback"

    static func redirect(grant: String = Secrets.grant, loginType: String = "GOOGLE", path: String = "/auth/callback") -> String {
        "http://127.0.0.1:8791\(path)?token=\(grant)&login_type=\(loginType)"
    }

    // MARK: Which redirect URLs are loopback

    @Test(
        arguments: [
            ("http://127.0.0.1:8791/auth/callback", 8791),
            ("HTTP://127.0.0.1:8791/auth/callback", 8791),
            ("http://127.0.0.1:1/", 1),
            ("http://127.0.0.1:65535", 65535),
            ("  http://127.0.0.1:8791/cb  ", 8791),
            ("http://127.0.0.1:0/auth/callback", 0) // any free port, chosen at each sign-in
        ] as [(String, Int)])
    func loopbackRedirectURLsAndTheirPorts(url: String, port: Int) {
        #expect(PortalAuth.loopbackPort(of: url) == UInt16(port))
    }

    @Test(arguments: [
        "io.github.portalauth.signin://auth/callback",
        "http://localhost:8791/auth/callback", // §8.3: a name, not the address
        "http://[::1]:8791/auth/callback",
        "http://127.0.0.2:8791/auth/callback",
        "http://127.0.0.1/auth/callback", // no port: nothing to bind
        "http://127.0.0.1:08791/auth/callback",
        "http://127.0.0.1:00/auth/callback",
        "http://127.0.0.1:65536/auth/callback",
        "http://127.0.0.1:87a1/auth/callback",
        "http://127.0.0.1:/auth/callback",
        "http://user@127.0.0.1:8791/auth/callback",
        "http://127.0.0.1:8791/auth/callback?x=1",
        "http://127.0.0.1:8791/auth/callback#f",
        "https://127.0.0.1:8791/auth/callback",
        "http://127.0.0.1.example.com:8791/auth/callback",
        ""
    ])
    func otherRedirectURLsAreNotLoopback(url: String) {
        #expect(PortalAuth.loopbackPort(of: url) == nil)
    }

    // MARK: The sign-in

    @Test func aTakenPortStopsTheSignInBeforeAnythingIsSentOrOpened() async throws {
        let loopback = FakeLoopback(failure: .portInUse(port: 8791))
        let f = try PortalCoreFixture(redirectUrl: Self.redirectUrl, loopback: loopback)
        f.transport.reply(Wire.authorizeUrls)
        await #expect(throws: LoopbackListenError.portInUse(port: 8791)) { try await f.auth.signInWithGoogle() }
        #expect(loopback.record.current.ports == [8791])
        #expect(f.transport.requests.isEmpty, "Portal was asked for an authorize URL")
        #expect(f.browser.openedURLs.isEmpty, "a browser was opened")
        #expect(f.auth.pendingSignIn == nil)
        // The sign-in is released: the next attempt runs.
        await #expect(throws: LoopbackListenError.portInUse(port: 8791)) { try await f.auth.signInWithApple() }
    }

    @Test func thePortIsBoundBeforeTheAuthorizeUrlIsFetched() async throws {
        let f = try PortalCoreFixture(redirectUrl: Self.redirectUrl)
        let loopback = FakeLoopback(requests: [Self.redirect()], transport: f.transport)
        let auth = try PortalAuth(
            authEnvironmentId: "local-dev", redirectUrl: Self.redirectUrl, apiHost: "127.0.0.1:8790",
            transport: f.transport, sessionStore: f.store, browser: f.browser, loopback: loopback)
        auth.setAuthPresentationAnchor(f.anchor)
        f.transport.reply(Wire.authorizeUrls)
        f.transport.reply(Wire.session())
        _ = try await auth.signInWithGoogle()
        #expect(loopback.record.current.requestsBeforeListening == [0])
        #expect(f.transport.requests.first?.query == "redirectUrl=http%3A%2F%2F127.0.0.1%3A8791%2Fauth%2Fcallback")
    }

    @Test func theRedirectOnThePathIsExchangedAndSaved() async throws {
        let loopback = FakeLoopback(requests: [Self.redirect()])
        let f = try PortalCoreFixture(redirectUrl: Self.redirectUrl, loopback: loopback)
        f.transport.reply(Wire.authorizeUrls)
        f.transport.reply(Wire.session())
        let result = try #require(try await f.auth.signInWithGoogle().authenticated)
        #expect(result.session.endUserId == "eu_1")
        #expect(f.browser.openedURLs.map(\.absoluteString) == [Wire.googleAuthorize])
        #expect(f.transport.paths == ["/api/v3/auth/oauth/urls", "/api/v3/auth/oauth/tokens"])
        #expect(f.store.stored() == PortalCoreFixture.storedSecret())
        #expect(loopback.record.current.closed, "the port was left open")
        // The same redirect delivered again replays (the handleRedirect path), nothing is sent.
        _ = try await f.auth.handleRedirect(Self.redirect())
        #expect(f.transport.paths.count == 2)
    }

    @Test func otherPathsAndOtherResultsDoNotConsumeTheListener() async throws {
        let loopback = FakeLoopback(requests: [
            "http://127.0.0.1:8791/favicon.ico",
            Self.redirect(path: "/auth/callback/extra"),
            Self.redirect(path: "/auth/Callback"),
            "http://127.0.0.1:8791/auth/callback", // no result at all
            Self.redirect(loginType: "APPLE"), // another provider's
            Self.redirect()
        ])
        let f = try PortalCoreFixture(redirectUrl: Self.redirectUrl, loopback: loopback)
        f.transport.reply(Wire.authorizeUrls)
        f.transport.reply(Wire.session())
        _ = try #require(try await f.auth.signInWithGoogle().authenticated)
        #expect(loopback.record.current.verdicts == [.notFound, .notFound, .notFound, .notASignIn, .notASignIn, .take])
        #expect(f.transport.paths == ["/api/v3/auth/oauth/urls", "/api/v3/auth/oauth/tokens"])
    }

    @Test func anErrorRedirectIsTakenAndReportsTheFailure() async throws {
        let loopback = FakeLoopback(requests: ["http://127.0.0.1:8791/auth/callback?error=oauth_failed"])
        let f = try PortalCoreFixture(redirectUrl: Self.redirectUrl, loopback: loopback)
        f.transport.reply(Wire.authorizeUrls)
        await #expect(throws: PortalAuthError.authenticationFailed(error: "oauth_failed")) { try await f.auth.signInWithGoogle() }
        #expect(f.transport.paths == ["/api/v3/auth/oauth/urls"])
    }

    @Test func cancellingClosesThePortAndSpendsNothing() async throws {
        let loopback = FakeLoopback(requests: ["http://127.0.0.1:8791/favicon.ico"])
        let f = try PortalCoreFixture(redirectUrl: Self.redirectUrl, loopback: loopback)
        f.transport.reply(Wire.authorizeUrls)
        let auth = f.auth
        let task = Task { try await auth.signInWithGoogle() }
        await f.browser.opened.wait()
        task.cancel()
        await #expect(throws: PortalAuthSignInError.closed) { try await task.value }
        #expect(loopback.record.current.closed)
        #expect(f.transport.paths == ["/api/v3/auth/oauth/urls"])
        #expect(f.auth.pendingSignIn == nil)
    }

    @Test func thePortIsHeldForTheAuthorizeUrlsLifetimeAfterTheSignInEnds() async throws {
        let loopback = FakeLoopback(requests: [Self.redirect()])
        let f = try PortalCoreFixture(redirectUrl: Self.redirectUrl, loopback: loopback)
        f.transport.reply(Wire.authorizeUrls)
        f.transport.reply(Wire.session())
        _ = try await f.auth.signInWithGoogle()
        #expect(loopback.record.current.holds == [.seconds(PortalPendingSignIn.lifetime)])
    }

    /// Port 0: any free port (RFC 8252 §7.3). The authorize URL is asked for with the port bound, and
    /// the redirect on that port is this sign-in's.
    @Test func anyFreePortSendsTheBoundPortAndTakesTheRedirectOnIt() async throws {
        let bound = FakeLoopback.ephemeralPort
        let onBoundPort = "http://127.0.0.1:\(bound)/auth/callback?token=\(Secrets.grant)&login_type=GOOGLE"
        let loopback = FakeLoopback(requests: ["http://127.0.0.1:\(bound)/other", onBoundPort])
        let f = try PortalCoreFixture(redirectUrl: "http://127.0.0.1:0/auth/callback", loopback: loopback)
        f.transport.reply(Wire.authorizeUrls)
        f.transport.reply(Wire.session())
        let result = try #require(try await f.auth.signInWithGoogle().authenticated)
        #expect(result.session.endUserId == "eu_1")
        #expect(loopback.record.current.ports == [0])
        #expect(f.transport.requests.first?.query == "redirectUrl=http%3A%2F%2F127.0.0.1%3A\(bound)%2Fauth%2Fcallback")
        #expect(loopback.record.current.verdicts == [.notFound, .take])
        #expect(f.transport.paths == ["/api/v3/auth/oauth/urls", "/api/v3/auth/oauth/tokens"])
    }

    @Test func aWaitThatCannotAcceptEndsTheSignInAndSpendsNothing() async throws {
        let loopback = FakeLoopback(waitFailure: .interfered(port: 8791))
        let f = try PortalCoreFixture(redirectUrl: Self.redirectUrl, loopback: loopback)
        f.transport.reply(Wire.authorizeUrls)
        await #expect(throws: LoopbackListenError.interfered(port: 8791)) { try await f.auth.signInWithGoogle() }
        #expect(f.transport.paths == ["/api/v3/auth/oauth/urls"])
        #expect(loopback.record.current.closed)
        #expect(f.auth.pendingSignIn == nil)
    }

    @Test func withoutAListenerALoopbackRedirectUrlIsUnavailable() async throws {
        let f = try PortalCoreFixture(redirectUrl: Self.redirectUrl)
        await #expect(throws: PortalAuthSignInError.unavailable) { try await f.auth.signInWithGoogle() }
        #expect(f.transport.requests.isEmpty)
    }
}
