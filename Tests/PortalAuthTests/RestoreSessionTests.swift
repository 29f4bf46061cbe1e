import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

@Suite("restoreSession")
struct RestoreSessionTests {
    @Test func nothingStoredIsNil() async throws {
        let f = try PortalCoreFixture()
        #expect(try await f.auth.restoreSession() == nil)
        #expect(f.transport.requests.isEmpty)
    }

    @Test func storedSessionIsRestoredWithoutNetwork() async throws {
        let f = try PortalCoreFixture()
        f.store.put(PortalCoreFixture.storedSecret())
        let session = try #require(try await f.auth.restoreSession())
        #expect(session.endUserId == "eu_1")
        expectSameSecret(try? session.getToken(), Secrets.sessionToken, "restored token mismatch")
        #expect(f.transport.requests.isEmpty)
        #expect(f.store.deleteCount == 0)
    }

    @Test(arguments: [
        "not json", "{}", #"{"clientSessionToken":"pst_x"}"#, #"{"clientSessionToken":" ","endUserId":"eu"}"#,
        #"{"clientSessionToken":"pst_x","endUserId":""}"#, #"{"clientSessionToken":1,"endUserId":"eu"}"#
    ])
    func unreadableEntryIsDeletedAndReadsAsNil(stored: String) async throws {
        let f = try PortalCoreFixture()
        f.store.put(stored)
        #expect(try await f.auth.restoreSession() == nil)
        #expect(f.store.isEmpty)
        #expect(f.store.deleteCount == 1)
    }

    @Test func loadFailureIsSessionStorageFailure() async throws {
        let f = try PortalCoreFixture()
        f.store.put(PortalCoreFixture.storedSecret())
        f.store.failNextLoad(SessionStoreError(.noService))
        await #expect(throws: PortalAuthError.sessionStorageFailure(SessionStoreError(.noService))) {
            try await f.auth.restoreSession()
        }
        #expect(!f.store.isEmpty)
    }

    @Test func failingToDeleteAnUnreadableEntryIsSessionStorageFailure() async throws {
        let f = try PortalCoreFixture()
        f.store.put("garbage")
        f.store.failNextDelete(SessionStoreError(.locked))
        await #expect(throws: PortalAuthError.sessionStorageFailure(SessionStoreError(.locked))) {
            try await f.auth.restoreSession()
        }
    }

    @Test func eachRestoreIsKeyedByTheEnvironment() async throws {
        let f = try PortalCoreFixture()
        f.store.put(PortalCoreFixture.storedSecret(), "another-env")
        #expect(try await f.auth.restoreSession() == nil)
    }
}
