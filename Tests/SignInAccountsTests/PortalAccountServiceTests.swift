import AuthTestSupport
import Foundation
import PortalAuth
import SignInFlow
import Testing

@testable import SignInAccounts

@MainActor
@Suite("PortalAccountService: PortalAuth adapted to the flow", .timeLimit(.minutes(1)))
struct PortalAccountServiceTests {
    @Test func aBrowserSignInTakesItsRedirectAndSignsIn() async throws {
        let f = try PortalFixture()
        f.transport.reply(Wire.authorizeUrls)
        f.transport.reply(Wire.session())
        let service = f.service
        let signIn = Task { try await service.signIn(with: .google) }
        await f.browser.opened.wait()
        #expect(f.service.authorizeURL?.absoluteString.hasPrefix(Wire.googleAuthorize) == true)
        #expect(f.service.offer(PortalFixture.redirect()) == .taken)
        #expect(f.service.offer(PortalFixture.redirect()).summary != .taken, "the sign-in took a second redirect")
        let outcome = try await signIn.value
        #expect(
            outcome
                == .signedIn(
                    SignedInAccount(
                        id: "eu_1", title: "eu_1",
                        details: [.endUser("eu_1"), .client("cl_1"), .accountAbstraction(false)])))
        #expect(f.transport.paths == ["/api/v3/auth/oauth/urls", "/api/v3/auth/oauth/tokens"])
        #expect(f.store.stored() != nil, "the session was not kept")
    }

    @Test func redirectsAreDecidedBeforeAnythingIsSent() async throws {
        let f = try PortalFixture()
        #expect(f.service.offer("other.app://callback?token=x") == .notMine)
        #expect(f.service.offer(ForeignCallbacks.turnkeyShaped) == .notMine)
        #expect(f.service.offer(PortalFixture.redirect()).summary == .ask(.provider(.google), .unsolicited))
        #expect(f.service.offer(PortalFixture.redirect(loginType: "APPLE")).summary == .ask(.provider(.apple), .unsolicited))
        #expect(f.service.offer("\(PortalFixture.redirectUrl)?error=access_denied") == .ignore)
        #expect(f.transport.requests.isEmpty && !f.store.touched)
    }

    @Test func aRepeatedRedirectReplaysAndSendsNothing() async throws {
        let f = try PortalFixture()
        f.transport.reply(Wire.session())
        _ = try await f.service.complete(try #require(f.service.offer(PortalFixture.redirect()).held))
        let again = f.service.offer(PortalFixture.redirect())
        #expect(again.summary == .exchange(.provider(.google), .repeated))
        let sent = f.transport.requests.count
        guard case .signedIn(let account) = try await f.service.complete(try #require(again.held)) else { throw Unexpected() }
        #expect(account.id == "eu_1")
        #expect(f.transport.requests.count == sent, "the repeat sent the spent grant again")
    }

    @Test func aRedirectAnEarlierRunWaitedForIsAskedAbout() async throws {
        let earlier = InMemoryPortalPendingSignInStore()
        earlier.save(
            PortalPendingSignIn(
                method: .oauth(.google), authEnvironmentId: "local-dev",
                startedAt: Date(timeIntervalSince1970: 1_900_000_000 - 60)))
        let f = try PortalFixture(pendingSignIns: earlier)
        #expect(f.service.offer(PortalFixture.redirect()).summary == .ask(.provider(.google), .earlierRun))
        #expect(f.service.offer(PortalFixture.redirect(loginType: "APPLE")).summary == .ask(.provider(.apple), .unsolicited))
    }

    @Test func cancelEndsTheBrowserSignInAndALateRedirectIsUnsolicited() async throws {
        let f = try PortalFixture()
        f.transport.reply(Wire.authorizeUrls)
        let service = f.service
        let signIn = Task { try await service.signIn(with: .google) }
        await f.browser.opened.wait()
        f.service.cancelSignIn()
        await #expect(throws: PortalAuthSignInError.closed) { try await signIn.value }
        #expect(f.service.offer(PortalFixture.redirect()).summary == .ask(.provider(.google), .unsolicited))
        #expect(f.transport.paths == ["/api/v3/auth/oauth/urls"], "a cancelled sign-in exchanged its grant")
    }

    @Test func aWrongCodeIsAFactAndTheCodeCanBeTypedAgain() async throws {
        let f = try PortalFixture()
        f.transport.reply(Wire.totpStep())
        guard case .needsCode(let challenge) = try await f.service.complete(try #require(f.service.offer(PortalFixture.redirect()).held))
        else { throw Unexpected() }
        f.transport.reply(401, Wire.error401)
        await #expect(throws: TwoFactorCodeError.wrongCode) { try await f.service.verify(code: "000000", for: challenge) }
        f.transport.reply(Wire.totpAccepted())
        let account = try await f.service.verify(code: "123456", for: challenge)
        #expect(account.id == "eu_totp")
        #expect(f.transport.requests.last?.jsonBody["code"] as? String == "123456")
    }

    @Test func tooManyCodesEndsTheChallenge() async throws {
        let f = try PortalFixture()
        f.transport.reply(Wire.totpStep())
        guard case .needsCode(let challenge) = try await f.service.complete(try #require(f.service.offer(PortalFixture.redirect()).held))
        else { throw Unexpected() }
        f.transport.reply(429, #"{"error":"Too many attempts"}"#)
        await #expect(throws: TwoFactorCodeError.tooManyCodes) { try await f.service.verify(code: "000000", for: challenge) }
        let sent = f.transport.requests.count
        await #expect(throws: PortalAuthSignInError.callbackIncomplete) { try await f.service.verify(code: "123456", for: challenge) }
        #expect(f.transport.requests.count == sent, "a code was sent for an ended challenge")
    }

    @Test func signOutForgetsTheSessionAndARejectedRestoreEndsIt() async throws {
        let f = try PortalFixture()
        f.transport.reply(Wire.session())
        guard case .signedIn(let account) = try await f.service.complete(try #require(f.service.offer(PortalFixture.redirect()).held))
        else { throw Unexpected() }
        try await f.service.signOut(account)
        #expect(f.store.stored() == nil)

        // A session another run stored, which Portal no longer accepts.
        f.store.put(#"{"clientSessionToken":"\#(Secrets.otherSessionToken)","endUserId":"eu_1"}"#)
        f.transport.reply(401, Wire.error401)
        await #expect(throws: SessionEndedError.self) { try await f.service.restore() }
        #expect(f.store.stored() == nil, "a session Portal refused is still kept")
    }

    @Test func aConfigurationTheCoreRefusedIsReportedByEveryCall() async throws {
        let service = PortalAccountService(core: .failure(PortalAuthError.invalidArgument(name: "authEnvironmentId")), anchor: FakeAnchor())
        await #expect(throws: PortalAuthError.invalidArgument(name: "authEnvironmentId")) { try await service.signIn(with: .google) }
        await #expect(throws: PortalAuthError.invalidArgument(name: "authEnvironmentId")) { try await service.restore() }
        #expect(service.offer(PortalFixture.redirect()) == .notMine)
    }

    struct Unexpected: Error {}
}

enum ForeignCallbacks {
    /// A Turnkey callback: the same scheme, but no redirect for Portal.
    static let turnkeyShaped = "io.github.portalauth.signin://?code=c&state=s"
}
