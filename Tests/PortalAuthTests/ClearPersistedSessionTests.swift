import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

@Suite("clearPersistedSession", .timeLimit(.minutes(1)))
struct ClearPersistedSessionTests {
    @Test func deletesTheStoredSessionWithoutAServerCall() async throws {
        let f = try PortalCoreFixture()
        f.store.put(PortalCoreFixture.storedSecret())
        try await f.auth.clearPersistedSession()
        #expect(f.store.isEmpty)
        #expect(f.transport.requests.isEmpty)
        #expect(try await f.auth.restoreSession() == nil)
    }

    @Test func forgetsTheReplaySlot() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        f.transport.reply(401, Wire.error401)
        _ = try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        try await f.auth.clearPersistedSession()
        // The re-delivered redirect cannot bring the session back; Portal refuses the spent grant.
        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.oauthTokens)) {
            try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        }
        #expect(f.transport.requests.count == 2)
        #expect(f.store.isEmpty)
    }

    @Test func forgetsAPendingTotpSave() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.totpAccepted())
        f.store.failNextSave()
        await #expect(throws: PortalAuthError.self) { try await f.auth.verifyTotp("123456", userJwt: Secrets.userJwt) }
        try await f.auth.clearPersistedSession()
        f.transport.reply(401, Wire.error401)
        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.totpValidations)) {
            try await f.auth.verifyTotp("123456", userJwt: Secrets.userJwt)
        }
        #expect(f.transport.requests.count == 2)
        #expect(f.store.isEmpty)
    }

    @Test func waitsForARunningExchangeSoTheSessionDoesNotComeBack() async throws {
        let f = try PortalCoreFixture()
        let arrived = Signal()
        let release = Signal()
        f.transport.enqueue(.held(arrived: arrived, release: release, status: 200, body: Wire.session()))
        let exchange = Task { try await f.auth.handleRedirect(PortalCoreFixture.redirect()) }
        await arrived.wait()
        let clear = Task { try await f.auth.clearPersistedSession() }
        #expect(await eventually { f.auth.mutex.waiterCount == 1 })
        #expect(f.store.deleteCount == 0)
        release.fire()
        _ = try await exchange.value
        try await clear.value
        #expect(f.store.saveCount == 1)
        #expect(f.store.isEmpty)
    }

    @Test func deleteFailureIsSessionStorageFailure() async throws {
        let f = try PortalCoreFixture()
        f.store.put(PortalCoreFixture.storedSecret())
        f.store.failNextDelete(SessionStoreError(.locked))
        await #expect(throws: PortalAuthError.sessionStorageFailure(SessionStoreError(.locked))) {
            try await f.auth.clearPersistedSession()
        }
    }
}
