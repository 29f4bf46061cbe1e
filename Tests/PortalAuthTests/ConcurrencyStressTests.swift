import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

/// Races the sanitizers (script/sanitize) get to watch: many deliveries of one redirect, a sign-out
/// against an exchange, a redirect against a sign-in that is still starting to listen.
@Suite("Concurrency under stress", .timeLimit(.minutes(2)))
struct ConcurrencyStressTests {
    @Test func aThousandConcurrentDeliveriesOfOneRedirectMakeOneExchange() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session()) // a second exchange would find no reply and fail
        let sessions = try await withThrowingTaskGroup(of: PortalSession?.self) { group in
            for _ in 0..<1000 {
                group.addTask { try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.authenticated?.session }
            }
            return try await group.reduce(into: [PortalSession?]()) { $0.append($1) }
        }
        #expect(sessions.count == 1000)
        let first = try #require(sessions.first ?? nil)
        #expect(sessions.allSatisfy { $0 === first }, "a delivery got another session, or none")
        #expect(f.transport.requests.count == 1)
        #expect(f.store.saveCount == 1)
        let saved = f.store.stored() == PortalCoreFixture.storedSecret()
        #expect(saved, "the one session was not saved")
    }

    /// A redirect that arrived first and a sign-out race for the mutex: whichever wins, nothing is
    /// stored afterwards (the exchange saved before the delete, or gave up without sending the grant).
    @Test func anExchangeRacingASignOutNeverSavesAfterTheDelete() async throws {
        for _ in 0..<300 {
            let f = try PortalCoreFixture()
            f.transport.reply(Wire.session())
            let arrived = f.auth.signOutFence.ticket() // the redirect is asked for first…
            async let exchange = Result(catching: { try await f.auth.handleRedirect(PortalCoreFixture.redirect(), fenceTicket: arrived) })
            async let signOut: Void = f.auth.clearPersistedSession() // …and the sign-out races it
            let outcome = await exchange
            try await signOut
            #expect(f.store.isEmpty, "a session was saved after the sign-out's delete")
            #expect(f.auth.replaySlot.isEmpty, "the sign-out left a grant to replay")
            switch outcome {
            case .success(let result):
                #expect(result?.authenticated != nil)
                #expect(f.store.saveCount == 1 && f.transport.requests.count == 1)
            case .failure(let error):
                #expect(error is CancellationError, "unexpected \(error)")
                #expect(f.transport.requests.isEmpty, "an overtaken exchange still spent the grant")
                #expect(f.store.saveCount == 0)
            }
        }
    }

    @Test func aTotpVerificationRacingASignOutNeverSavesAfterTheDelete() async throws {
        for _ in 0..<300 {
            let f = try PortalCoreFixture()
            f.transport.reply(Wire.totpAccepted())
            let arrived = f.auth.signOutFence.ticket()
            async let verify = Result(catching: { try await f.auth.verifyTotp("123456", userJwt: Secrets.userJwt, fenceTicket: arrived) })
            async let signOut: Void = f.auth.clearPersistedSession()
            let outcome = await verify
            try await signOut
            #expect(f.store.isEmpty, "a session was saved after the sign-out's delete")
            if case .failure(let error) = outcome {
                #expect(error is CancellationError, "unexpected \(error)")
                #expect(f.transport.requests.isEmpty, "an overtaken verification still sent the code")
            }
        }
    }

    @Test func redirectsDeliveredWhileASignOutRunsAreNotExchanged() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        let deleting = Signal()
        let release = Signal()
        f.store.holdNextDelete(arrived: deleting, release: release)
        let signOut = Task { try await f.auth.clearPersistedSession() }
        await deleting.wait()
        let deliveries = (0..<100).map { _ in Task { try await f.auth.handleRedirect(PortalCoreFixture.redirect()) } }
        #expect(await eventually { f.auth.mutex.waiterCount == 100 })
        release.fire()
        try await signOut.value
        for delivery in deliveries {
            await #expect(throws: CancellationError.self) { try await delivery.value }
        }
        #expect(f.transport.requests.isEmpty)
        #expect(f.store.isEmpty)
    }

    @Test func aRedirectAskedForAfterTheSignOutReturnedSignsInAgain() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        try await f.auth.clearPersistedSession()
        #expect(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.authenticated != nil)
        let saved = f.store.stored() == PortalCoreFixture.storedSecret()
        #expect(saved, "a sign-in after the sign-out was not saved")
    }

    /// The desktop may hand over the redirect while `signInWithGoogle` is still fetching the
    /// authorize URL and registering its listener: the URI is either taken by the sign-in (which then
    /// finishes with one exchange) or handed back to the caller, never dropped between the two.
    @Test func aRedirectDeliveredWhileTheSignInIsStillRegisteringIsTakenOrHandedBack() async throws {
        for _ in 0..<200 {
            let f = try PortalCoreFixture()
            f.transport.reply(Wire.authorizeUrls)
            f.transport.reply(Wire.session())
            let signIn = Task { try await f.auth.signInWithGoogle() }
            while !f.desktop.deliver(PortalCoreFixture.redirect()) { await Task.yield() }
            let result = try await signIn.value
            #expect(result.authenticated?.session.endUserId == "eu_1")
            #expect(f.transport.paths == ["/api/v3/auth/oauth/urls", "/api/v3/auth/oauth/tokens"])
            #expect(!f.desktop.isWaiting, "the finished sign-in still listens")
        }
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
