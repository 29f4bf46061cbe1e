import Foundation
import Testing

/// Injected faults: an error status, a hang past the client's timeout, and a drop after the work.
@Suite("Fault injection")
final class FaultTests: EmulatorSuite {
    @Test func statusFaultAnswersThatStatusWithoutDoingTheWork() async throws {
        let grant = try await client.googleGrant(email: "alice@example.com")
        try await client.addFault(["path": "/api/v3/auth/oauth/tokens", "kind": "status", "status": 503, "count": 2])
        let first = try await client.exchange(grant)
        #expect(first.status == 503)
        #expect(first.error?.isEmpty == false)
        #expect(try await client.exchange(grant).status == 503)
        // The grant was never spent by the faulted calls.
        #expect(try await client.exchange(grant).status == 200)
    }

    @Test func hangOutlastsAShortClientTimeoutAndTheAbandonedRequestIsNeverHandled() async throws {
        let grant = try await client.googleGrant(email: "alice@example.com")
        try await client.addFault(["path": "/api/v3/auth/oauth/tokens", "kind": "hang", "seconds": 3])
        let started = Date()
        await #expect(throws: EmulatorClient.TransportFailure.self) {
            let impatient = EmulatorClient(baseURL: self.emulator.baseURL, adminToken: self.emulator.adminToken, timeout: 1)
            _ = try await impatient.post("/api/v3/auth/oauth/tokens", json: ["token": grant], timeout: 1)
        }
        #expect(Date().timeIntervalSince(started) < 2.9)
        // Nothing was done while it hung: the grant still works.
        #expect(try await client.exchange(grant).status == 200)
        // The held request was freed when its client left (logged as 0, no answer) and is not
        // handled when its hang would have ended: the log gains nothing more. The server may notice
        // the client left only after it answered the next request, so the order is not asserted.
        try await Task.sleep(nanoseconds: 3_000_000_000)
        let log = try await client.requestLog().filter { $0["path"] as? String == "/api/v3/auth/oauth/tokens" }
        #expect(log.compactMap { $0["status"] as? Int }.sorted() == [0, 200])
    }

    @Test func hangLongerThanNothingStillAnswersAPatientClient() async throws {
        try await client.addFault(["path": "/api/v3/auth/methods", "kind": "hang", "seconds": 1])
        let started = Date()
        let result = try await client.get("/api/v3/auth/methods", timeout: 5)
        #expect(result.status == 200)
        #expect(Date().timeIntervalSince(started) >= 0.9)
    }

    @Test func dropClosesTheConnectionAfterTheGrantWasSpent() async throws {
        let grant = try await client.googleGrant(email: "alice@example.com")
        try await client.addFault(["path": "/api/v3/auth/oauth/tokens", "kind": "drop"])
        let started = Date()
        await #expect(throws: EmulatorClient.TransportFailure.self) {
            _ = try await self.client.exchange(grant)
        }
        #expect(Date().timeIntervalSince(started) < 5, "the client sees the closed connection at once")
        let retry = try await client.exchange(grant)
        #expect(retry.status == 401)
        // The work was committed: a session exists although nobody received it.
        let sessions = try await client.state()["sessions"] as? [[String: Any]] ?? []
        #expect(sessions.count == 1)
        let log = try await client.requestLog().filter { $0["path"] as? String == "/api/v3/auth/oauth/tokens" }
        #expect(log.compactMap { $0["status"] as? Int } == [0, 401])
    }

    @Test func faultsAreValidatedAndCountedPerPath() async throws {
        #expect(try await client.post("/emulator/v1/faults", json: ["path": "/x", "kind": "explode"]).status == 400)
        #expect(try await client.post("/emulator/v1/faults", json: ["kind": "drop"]).status == 400)
        #expect(try await client.post("/emulator/v1/faults", json: ["path": "/emulator/v1/reset", "kind": "drop"]).status == 400)
        #expect(try await client.post("/emulator/v1/faults", json: ["path": "/x", "kind": "status", "status": 200]).status == 400)
        #expect(try await client.post("/emulator/v1/faults", json: ["path": "/x", "kind": "hang", "seconds": 0]).status == 400)
        try await client.addFault(["path": "/api/v3/auth/methods", "kind": "status", "status": 500])
        let pending = try await client.get("/emulator/v1/faults").dataList ?? []
        #expect(pending.count == 1)
        #expect(try await client.get("/api/v3/auth/oauth/urls?redirectUrl=\(EmulatorClient.encodedRedirectUrl)").status == 200)
        #expect(try await client.get("/api/v3/auth/methods").status == 500)
        #expect(try await client.get("/api/v3/auth/methods").status == 200)
        #expect(try await client.get("/emulator/v1/faults").dataList?.isEmpty == true)
    }
}
