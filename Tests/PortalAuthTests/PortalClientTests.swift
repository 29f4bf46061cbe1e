import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

@Suite("PortalClient and session invalidation", .timeLimit(.minutes(1)))
struct PortalClientTests {
    private func makeClient(_ transport: ScriptedTransport, _ session: PortalSession) throws -> PortalClient {
        try PortalClient(session: session, apiHost: "127.0.0.1:8790", authEnvironmentId: "local-dev", transport: transport)
    }

    private func session() -> PortalSession {
        PortalSession(clientSessionToken: Secrets.sessionToken, endUserId: "eu_1")
    }

    @Test func getClientSendsTheSessionAsBearer() async throws {
        let transport = ScriptedTransport()
        transport.reply(#"{"data":{"id":"cl_1","endUserId":"eu_1","isAccountAbstracted":false}}"#)
        let client = try makeClient(transport, session())
        #expect(try await client.getClient() == ClientInfo(id: "cl_1", endUserId: "eu_1", isAccountAbstracted: false))
        let request = try #require(transport.requests.first)
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == "http://127.0.0.1:8790/api/v3/clients/me")
        let bearer = request.headers["Authorization"] == "Bearer " + Secrets.sessionToken
        #expect(bearer, "Authorization is not Bearer <clientSessionToken>")
        #expect(request.headers["x-portal-auth-environment-id"] == "local-dev")
        #expect(UUID(uuidString: request.headers["X-Portal-Trace-Id"] ?? "") != nil)
    }

    @Test func first401InvalidatesTheSessionAndFiresEachListenerOnce() async throws {
        let transport = ScriptedTransport()
        transport.reply(401, Wire.error401)
        transport.reply(401, Wire.error401)
        let session = session()
        let client = try makeClient(transport, session)
        let calls = Box([0, 0])
        client.onSessionInvalidated { calls.withLock { $0[0] += 1 } }
        client.onSessionInvalidated { calls.withLock { $0[1] += 1 } }

        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.clientsMe)) { try await client.getClient() }
        #expect(session.isInvalidated)
        #expect(calls.current == [1, 1])

        // The ended session sends nothing more and fires nothing more.
        await #expect(throws: PortalCredentialError.sessionInvalidated) { try await client.getClient() }
        #expect(transport.requests.count == 1)
        #expect(calls.current == [1, 1])
    }

    @Test func concurrent401sFireOnce() async throws {
        let transport = ScriptedTransport()
        let arrivedA = Signal()
        let arrivedB = Signal()
        let release = Signal()
        transport.enqueue(.held(arrived: arrivedA, release: release, status: 401, body: Wire.error401))
        transport.enqueue(.held(arrived: arrivedB, release: release, status: 401, body: Wire.error401))
        let client = try makeClient(transport, session())
        let calls = Box(0)
        client.onSessionInvalidated { calls.withLock { $0 += 1 } }
        let a = Task { try await client.getClient() }
        let b = Task { try await client.getClient() }
        await arrivedA.wait()
        await arrivedB.wait()
        release.fire()
        _ = await (a.result, b.result)
        #expect(calls.current == 1)
    }

    @Test func lateSubscriberToAnInvalidatedSessionGetsOneCall() async throws {
        let transport = ScriptedTransport()
        transport.reply(401, Wire.error401)
        let session = session()
        let client = try makeClient(transport, session)
        // The 401 really arrived and ended the session (not some other failure).
        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.clientsMe)) { try await client.getClient() }
        #expect(session.isInvalidated)
        let calls = Box(0)
        client.onSessionInvalidated { calls.withLock { $0 += 1 } }
        #expect(calls.current == 1)
        await #expect(throws: PortalCredentialError.sessionInvalidated) { try await client.getClient() }
        #expect(transport.requests.count == 1, "an ended session was sent again")
        #expect(calls.current == 1)
    }

    @Test func cancelledSubscriptionIsNotCalledAndCancelIsIdempotent() async throws {
        let transport = ScriptedTransport()
        transport.reply(401, Wire.error401)
        let session = session()
        let client = try makeClient(transport, session)
        let calls = Box(0)
        let subscription = client.onSessionInvalidated { calls.withLock { $0 += 1 } }
        subscription.cancel()
        subscription.cancel()
        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.clientsMe)) { try await client.getClient() }
        #expect(session.isInvalidated, "the 401 must have ended the session, or the listener had nothing to miss")
        #expect(calls.current == 0)
    }

    @Test func clearSessionNeverFiresTheListener() async throws {
        let transport = ScriptedTransport()
        let session = session()
        let client = try makeClient(transport, session)
        let calls = Box(0)
        client.onSessionInvalidated { calls.withLock { $0 += 1 } }
        client.clearSession()
        #expect(session.isInvalidated)
        await #expect(throws: PortalCredentialError.sessionInvalidated) { try await client.getClient() }
        client.onSessionInvalidated { calls.withLock { $0 += 1 } }
        #expect(calls.current == 0)
        #expect(transport.requests.isEmpty)
    }

    @Test func otherFailuresDoNotInvalidate() async throws {
        let transport = ScriptedTransport()
        transport.reply(500, "boom")
        transport.enqueue(.fail(TransportError(.timedOut, host: "127.0.0.1")))
        let session = session()
        let client = try makeClient(transport, session)
        let calls = Box(0)
        client.onSessionInvalidated { calls.withLock { $0 += 1 } }
        await #expect(throws: PortalRequestsError.internalServerError(status: 500, detail: "boom")) { try await client.getClient() }
        await #expect(throws: TransportError.self) { try await client.getClient() }
        #expect(!session.isInvalidated)
        #expect(calls.current == 0)
    }

    @Test func answerWithoutIdIsMalformed() async throws {
        let transport = ScriptedTransport()
        transport.reply(#"{"data":{"endUserId":"eu_1"}}"#)
        let client = try makeClient(transport, session())
        await #expect(throws: PortalAuthError.malformedResponse(path: "/api/v3/clients/me", missing: "id")) { try await client.getClient() }
    }

    @Test func badConfigurationIsRejected() {
        #expect(throws: PortalAuthError.invalidArgument(name: "apiHost")) {
            try PortalClient(
                session: session(), apiHost: "http://api.portalhq.io", authEnvironmentId: "env", transport: ScriptedTransport())
        }
        #expect(throws: PortalAuthError.invalidArgument(name: "authEnvironmentId")) {
            try PortalClient(session: session(), apiHost: "api.portalhq.io", authEnvironmentId: " ", transport: ScriptedTransport())
        }
    }

    @Test func sessionEndedElsewhereIsReportedWithoutARequest() async throws {
        let transport = ScriptedTransport()
        let session = session()
        let client = try makeClient(transport, session)
        let calls = Box(0)
        client.onSessionInvalidated { calls.withLock { $0 += 1 } }
        session.invalidate()
        await #expect(throws: PortalCredentialError.sessionInvalidated) { try await client.getClient() }
        await #expect(throws: PortalCredentialError.sessionInvalidated) { try await client.getClient() }
        #expect(transport.requests.isEmpty)
        #expect(calls.current == 1)
    }
}
