import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

@Suite("Grant exchange results")
struct ExchangeResultTests {
    @Test func sessionTokenIsSavedWithSortedKeysThenReturned() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session(accountAbstracted: true))
        let result = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.authenticated)
        #expect(result.session.endUserId == "eu_1")
        #expect(result.clientId == "cl_1")
        #expect(result.isAccountAbstracted == true)
        expectSameSecret(try? result.session.getToken(), Secrets.sessionToken, "session token mismatch")
        let saved = f.store.stored() == PortalCoreFixture.storedSecret()
        #expect(saved, "stored secret is not the sorted-key JSON")
        #expect(f.store.saveCount == 1)
    }

    /// The keyring connects while the grant is on the wire, not after: one less wait in a sign-in.
    @Test func theStoreIsToldToGetReadyBeforeTheGrantIsSent() async throws {
        let f = try PortalCoreFixture()
        let preparedWhenSent = Box(-1)
        f.transport.enqueue(
            .act(
                { preparedWhenSent.withLock { $0 = f.store.state.withLock(\.prepares) } },
                status: 200, body: Wire.session()))
        #expect(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.authenticated != nil)
        #expect(preparedWhenSent.withLock { $0 } == 1)
        #expect(f.store.state.withLock(\.saves) == 1)
    }

    @Test func userJwtMeansTotpRequiredAndNothingSaved() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.totpStep())
        let step = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.totpStep)
        let sameJwt = step.userJwt == Secrets.userJwt
        #expect(sameJwt, "userJwt mismatch")
        #expect(step.endUserId == "eu_totp")
        #expect(step.totpSecret == "JBSWY3DPEHPK3PXP")
        #expect(f.store.saveCount == 0)
        #expect(f.store.isEmpty)
    }

    @Test func blankSessionTokenBesideUserJwtIsATotpStep() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"data":{"endUserId":"eu_totp","clientSessionToken":"  ","userJwt":"\#(Secrets.userJwt)"}}"#)
        #expect(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.totpStep != nil)
        #expect(f.store.saveCount == 0)
    }

    @Test func neitherSessionNorJwtIsInvalidGrantResponse() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"data":{"endUserId":"eu_1","userJwt":" "}}"#)
        await #expect(throws: PortalAuthError.invalidGrantResponse) { try await f.auth.handleRedirect(PortalCoreFixture.redirect()) }
        #expect(f.store.saveCount == 0)
    }

    @Test(arguments: [nil, "", "   "] as [String?])
    func sessionWithoutEndUserIdIsMalformed(endUserId: String?) async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session(endUserId: endUserId))
        await #expect(throws: PortalAuthError.malformedResponse(path: "/api/v3/auth/oauth/tokens", missing: "endUserId")) {
            try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        }
        #expect(f.store.saveCount == 0)
    }

    @Test func magicLinkSessionWithoutEndUserIdNamesTheValidationsPath() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session(endUserId: nil))
        await #expect(throws: PortalAuthError.malformedResponse(path: "/api/v3/auth/magic-links/validations", missing: "endUserId")) {
            try await f.auth.handleRedirect(PortalCoreFixture.magicLinkRedirect())
        }
    }

    @Test func failedSaveIsSessionStorageFailureWithTheStoreMessage() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        f.store.failNextSave(SessionStoreError(.locked))
        await #expect(throws: PortalAuthError.sessionStorageFailure(SessionStoreError(.locked))) {
            try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        }
        #expect(f.store.isEmpty)
    }

    @Test func anyOtherStoreErrorIsWrappedToo() async throws {
        struct DiskFull: Error, CustomStringConvertible { var description: String { "disk full" } }
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        f.store.failNextSave(DiskFull())
        await #expect(throws: PortalAuthError.sessionStorageFailure(SessionStoreError(.other, detail: "disk full"))) {
            try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        }
    }

    @Test func rejectedGrantIsUnauthorizedAndNothingSaved() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(401, Wire.error401)
        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.oauthTokens)) {
            try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        }
        #expect(f.store.saveCount == 0)
    }

    @Test func transportErrorIsRethrownUnchanged() async throws {
        let f = try PortalCoreFixture()
        let dropped = TransportError(.connectionLost, host: "127.0.0.1", detail: "connection closed")
        f.transport.enqueue(.fail(dropped))
        await #expect(throws: dropped) { try await f.auth.handleRedirect(PortalCoreFixture.redirect()) }
    }
}
