import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

/// `PortalSession.invalidate()` ends the stored copy too, but never a newer session's.
@Suite("An invalidated session is not restored", .timeLimit(.minutes(1)))
struct InvalidatedSessionTests {
    @Test func aRestoredSessionInvalidatedIsDeletedAndNotRestoredAgain() async throws {
        let f = try PortalCoreFixture()
        f.store.put(PortalCoreFixture.storedSecret())
        let session = try #require(try await f.auth.restoreSession())
        session.invalidate()
        #expect(try await f.auth.restoreSession() == nil, "the dead session was handed back")
        #expect(f.store.stored() == nil, "the dead session is still stored")
    }

    @Test func aSignedInSessionInvalidatedIsDeleted() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        let result = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.authenticated)
        result.session.invalidate()
        #expect(try await f.auth.restoreSession() == nil)
        #expect(f.store.stored() == nil)
    }

    @Test func theStoredCopyGoesWithoutAnotherCall() async throws {
        let f = try PortalCoreFixture()
        f.store.put(PortalCoreFixture.storedSecret())
        let session = try #require(try await f.auth.restoreSession())
        session.invalidate()
        let deleted = await eventually { f.store.stored() == nil }
        #expect(deleted, "the stored copy was kept until the next call")
    }

    @Test func aNewerSessionIsKept() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        f.transport.reply(Wire.session(token: Secrets.otherSessionToken, endUserId: "eu_2"))
        let first = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.authenticated)
        let second = try #require(
            try await f.auth.handleRedirect(PortalCoreFixture.redirect(grant: Secrets.otherGrant))?.authenticated)
        first.session.invalidate()
        let restored = try #require(try await f.auth.restoreSession(), "the newer session was deleted")
        #expect(try restored.getToken() == second.session.getToken())
        // Whatever the background deletion does, it leaves the newer session alone.
        try await f.auth.settleEndedSessions()
        #expect(f.store.stored() == PortalCoreFixture.storedSecret(token: Secrets.otherSessionToken, endUserId: "eu_2"))
    }

    @Test func aSessionAnotherRunStoredAfterwardsIsKept() async throws {
        let f = try PortalCoreFixture()
        f.store.put(PortalCoreFixture.storedSecret())
        let session = try #require(try await f.auth.restoreSession())
        session.invalidate()
        _ = await eventually { f.store.stored() == nil }
        f.store.put(PortalCoreFixture.storedSecret(token: Secrets.otherSessionToken))
        #expect(try await f.auth.restoreSession()?.getToken() == Secrets.otherSessionToken)
    }
}

extension PortalAuth {
    /// Waits for the background deletion of ended sessions (it runs under the same lock).
    fileprivate func settleEndedSessions() async throws {
        try await mutex.withLock { try await self.forgetEndedSessionsLocked() }
    }
}
