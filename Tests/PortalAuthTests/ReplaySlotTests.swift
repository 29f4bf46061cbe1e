import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

@Suite("Replay slot: a redirect delivered twice", .timeLimit(.minutes(1)))
struct ReplaySlotTests {
    @Test func sameURLReplaysTheSameResultAndSessionWithoutASecondExchange() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        let first = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.authenticated)
        let second = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.authenticated)
        #expect(first.session === second.session)
        #expect(second.clientId == "cl_1")
        #expect(f.transport.requests.count == 1)
        #expect(f.store.saveCount == 1)
    }

    @Test func concurrentDeliveriesCollapseIntoOneExchange() async throws {
        let f = try PortalCoreFixture()
        let arrived = Signal()
        let release = Signal()
        f.transport.enqueue(.held(arrived: arrived, release: release, status: 200, body: Wire.session()))
        let first = Task { try await f.auth.handleRedirect(PortalCoreFixture.redirect()) }
        await arrived.wait()
        let second = Task { try await f.auth.handleRedirect(PortalCoreFixture.redirect()) }
        #expect(await eventually { f.auth.mutex.waiterCount == 1 })
        release.fire()
        let a = try #require(try await first.value?.authenticated)
        let b = try #require(try await second.value?.authenticated)
        #expect(a.session === b.session)
        #expect(f.transport.requests.count == 1)
    }

    @Test func failedSaveIsRetriedByTheRedeliveryWithoutResendingTheGrant() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        f.store.failNextSave()
        await #expect(throws: PortalAuthError.self) { try await f.auth.handleRedirect(PortalCoreFixture.redirect()) }
        #expect(f.store.isEmpty)

        let result = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.authenticated)
        #expect(f.transport.requests.count == 1)
        #expect(f.store.saveCount == 2)
        let saved = f.store.stored() == PortalCoreFixture.storedSecret()
        #expect(saved, "the retried save did not store the session")
        expectSameSecret(try? result.session.getToken(), Secrets.sessionToken, "session token mismatch")

        // Saved now: a third delivery replays without writing again.
        _ = try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        #expect(f.store.saveCount == 2)
    }

    @Test func rejectedGrantIsNotRemembered() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(401, Wire.error401)
        f.transport.reply(Wire.session())
        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.oauthTokens)) {
            try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        }
        #expect(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.authenticated != nil)
        #expect(f.transport.requests.count == 2)
    }

    @Test func transportFailureIsNotRemembered() async throws {
        let f = try PortalCoreFixture()
        f.transport.enqueue(.fail(TransportError(.timedOut, host: "127.0.0.1")))
        f.transport.reply(Wire.session())
        await #expect(throws: TransportError.self) { try await f.auth.handleRedirect(PortalCoreFixture.redirect()) }
        #expect(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.authenticated != nil)
        #expect(f.transport.requests.count == 2)
    }

    @Test func invalidatedRememberedSessionClearsTheSlotAndIsUnauthorized() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        let first = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.authenticated)
        first.session.invalidate()
        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.oauthTokens)) {
            try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        }
        #expect(f.auth.replaySlot.isEmpty)
        // The slot is gone, so the next delivery asks Portal again (which now refuses the spent grant).
        f.transport.reply(401, Wire.error401)
        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.oauthTokens)) {
            try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        }
        #expect(f.transport.requests.count == 2)
    }

    @Test func totpStepReplaysAsTheSameStep() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.totpStep())
        let first = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.totpStep)
        let second = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.totpStep)
        let same = first.userJwt == second.userJwt
        #expect(same, "the replayed step carries another userJwt")
        #expect(second.endUserId == "eu_totp")
        #expect(f.transport.requests.count == 1)
    }

    @Test func aWrongCodeLeavesTheGrantReplayingTheSameTotpStep() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.totpStep())
        f.transport.reply(401, Wire.error401)
        let step = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.totpStep)
        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.totpValidations)) {
            try await f.auth.verifyTotp("000000", userJwt: step.userJwt)
        }
        // The redirect delivered again (the person clicked the link once more) shows the code step
        // again, from the slot: the grant is not sent a second time.
        let again = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.totpStep)
        let same = again.userJwt == step.userJwt
        #expect(same, "the replayed step carries another userJwt")
        #expect(f.auth.incomingRedirect(PortalCoreFixture.redirect())?.standing == .repeated)
        #expect(f.transport.paths == ["/api/v3/auth/oauth/tokens", "/api/v3/auth/totps/validations"])
        #expect(f.store.saveCount == 0)
    }

    @Test func afterVerifyTotpTheSameGrantReplaysAsAuthenticated() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.totpStep())
        f.transport.reply(Wire.totpAccepted())
        let step = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.totpStep)
        let verified = try await f.auth.verifyTotp("123456", userJwt: step.userJwt)
        let replayed = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.authenticated)
        #expect(replayed.session === verified.session)
        #expect(replayed.session.endUserId == "eu_totp")
        #expect(f.transport.requests.count == 2)
    }

    @Test func slotIsByteExactOnTheGrant() async throws {
        // "é" precomposed and decomposed are equal Swift Strings but different grants.
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        f.transport.reply(Wire.session(token: Secrets.otherSessionToken))
        let composed = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect(grant: "pg_caf%C3%A9"))?.authenticated)
        let decomposed = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect(grant: "pg_cafe%CC%81"))?.authenticated)
        #expect(f.transport.requests.count == 2)
        #expect(composed.session !== decomposed.session)
    }

    @Test func slotHoldsOnlyTheLatestGrant() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        f.transport.reply(Wire.session(token: Secrets.otherSessionToken))
        f.transport.reply(401, Wire.error401)
        _ = try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        _ = try await f.auth.handleRedirect(PortalCoreFixture.redirect(grant: Secrets.otherGrant))
        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.oauthTokens)) {
            try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        }
        #expect(f.transport.requests.count == 3)
    }
}
