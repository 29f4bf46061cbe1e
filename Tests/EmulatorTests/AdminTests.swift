import Foundation
import Testing

/// The administration API and the dashboard, and that neither leaks what it must not.
@Suite("Administration and dashboard")
final class AdminTests: EmulatorSuite {
    private static func containsSecretShape(_ text: String) -> Bool {
        text.contains("pg_") || text.contains("pst_") || text.contains("eyJ")
    }

    @Test func stateListsEnvironmentsUsersAndSessionsButNoTokens() async throws {
        let session = try await client.exchange(try await client.googleGrant(email: "alice@example.com")).data ?? [:]
        _ = try await client.exchange(try await client.googleGrant(email: "totp@example.com"))
        let raw = try await client.get("/emulator/v1/state")
        #expect(raw.status == 200)
        expectQuietly(!Self.containsSecretShape(raw.text), "no grant, token or JWT in the answer")
        let state = raw.data ?? [:]
        let environments = state["environments"] as? [[String: Any]] ?? []
        #expect(environments.compactMap { $0["id"] as? String } == ["local-dev"])
        #expect(environments.first?["redirectUrls"] as? [String] == [EmulatorClient.redirectUrl, "http://127.0.0.1:0/auth/callback"])
        let users = state["users"] as? [[String: Any]] ?? []
        #expect(users.compactMap { $0["email"] as? String } == ["alice@example.com", "totp@example.com"])
        #expect(users.compactMap { $0["needsTotp"] as? Bool } == [false, true])
        let sessions = state["sessions"] as? [[String: Any]] ?? []
        #expect(sessions.count == 1)
        #expect(sessions.first?["endUserId"] as? String == session["endUserId"] as? String)
    }

    @Test func requestLogHasMethodPathStatusAndNeverAQueryOrGrant() async throws {
        let grant = try await client.googleGrant(email: "alice@example.com")
        _ = try await client.exchange(grant)
        let raw = try await client.get("/emulator/v1/requests")
        expectQuietly(!Self.containsSecretShape(raw.text), "no grant, token or JWT in the answer")
        expectQuietly(!raw.text.contains("?"), "no query strings in the log")
        let entries = raw.dataList ?? []
        let summary = entries.map { "\($0["method"] as? String ?? "") \($0["path"] as? String ?? "") \($0["status"] as? Int ?? -1)" }
        #expect(
            summary == [
                "GET /api/v3/auth/oauth/urls 200",
                "GET /idp/google/authorize 200",
                "POST /idp/google/authorize 302",
                "GET /api/v3/auth/oauth/callback/local-dev 302",
                "POST /api/v3/auth/oauth/tokens 200"
            ])
    }

    @Test func aGrantOrTokenPutInAPathIsRedactedInTheLog() async throws {
        let grant = try await client.googleGrant(email: "alice@example.com")
        let token =
            try await client.exchange(try await client.googleGrant(email: "alice@example.com")).data?["clientSessionToken"] as? String ?? ""
        _ = try await client.get("/api/v3/auth/oauth/callback/\(grant)")
        _ = try await client.get("/api/v3/clients/\(token)")
        let raw = try await client.get("/emulator/v1/requests")
        expectQuietly(!Self.containsSecretShape(raw.text), "no grant or token in the request log")
        let paths = (raw.dataList ?? []).suffix(2).map { $0["path"] as? String ?? "" }
        let redacted = paths == ["/api/v3/auth/oauth/callback/[redacted]", "/api/v3/clients/[redacted]"]
        #expect(redacted, "the secret path segments are not shown as [redacted]")
    }

    @Test func resetForgetsSessionsGrantsOutboxAndClock() async throws {
        let session =
            try await client.exchange(try await client.googleGrant(email: "alice@example.com")).data?["clientSessionToken"] as? String ?? ""
        let grant = try await client.googleGrant(email: "alice@example.com")
        _ = try await client.post(
            "/api/v3/auth/magic-links",
            json: [
                "email": "a@example.com", "redirectUrl": EmulatorClient.redirectUrl, "fromEmail": "x@y.z", "templateId": "t"
            ])
        let secretBefore = try await client.totpSecret("totp@example.com")
        try await client.advanceClock(3600)
        let reset = try await client.post("/emulator/v1/reset", json: [String: Any]())
        #expect(reset.data?["reset"] as? Bool == true)
        #expect(try await client.clientsMe(session).status == 401)
        #expect(try await client.exchange(grant).status == 401)
        #expect(try await client.outbox().isEmpty)
        let log = try await client.requestLog().map { "\($0["method"] as? String ?? "") \($0["path"] as? String ?? "")" }
        #expect(log == ["GET /api/v3/clients/me", "POST /api/v3/auth/oauth/tokens"], "only what came after the reset")
        let now = try await client.now()
        #expect(abs(now - Int(Date().timeIntervalSince1970)) < 5)
        #expect(try await client.totpSecret("totp@example.com") != secretBefore)
    }

    @Test func clockOnlyMovesForward() async throws {
        // The emulator's clock also runs in real time between the two calls: bound it by what really
        // passed here, not by a fixed window a loaded machine overruns.
        let started = ContinuousClock.now
        let before = try await client.now()
        let after = try await client.advanceClock(90)
        let passed = (ContinuousClock.now - started).components.seconds
        #expect(after - before >= 90 && after - before <= 90 + Int(passed) + 1)
        #expect(try await client.post("/emulator/v1/clock", json: ["advanceSeconds": -5]).status == 400)
        #expect(try await client.post("/emulator/v1/clock", json: ["advanceSeconds": "soon"]).status == 400)
    }

    @Test func userTotpAnswersOnlyForTotpUsers() async throws {
        let totp = try await client.get("/emulator/v1/users/totp%40example.com/totp")
        #expect(totp.status == 200)
        let secret = totp.data?["secret"] as? String ?? ""
        #expect(secret.count == 32)
        #expect((totp.data?["code"] as? String)?.count == 6)
        #expect(try await client.get("/emulator/v1/users/alice@example.com/totp").status == 404)
        #expect(try await client.get("/emulator/v1/users/nobody@example.com/totp").status == 404)
    }

    @Test func adminRefusesOtherOriginsAndHosts() async throws {
        let crossSite = try await client.post("/emulator/v1/reset", json: [String: Any](), headers: ["Origin": "https://evil.example"])
        #expect(crossSite.status == 403)
        let rebinding = try await client.get("/emulator/v1/state", headers: ["Host": "evil.example:\(emulator.port)"])
        #expect(rebinding.status == 403)
        let sameOrigin = try await client.get("/emulator/v1/state", headers: ["Origin": "http://127.0.0.1:\(emulator.port)"])
        #expect(sameOrigin.status == 200)
    }

    @Test func dashboardShowsUsersCodesAndOutboxAndRefreshesItself() async throws {
        _ = try await client.post(
            "/api/v3/auth/magic-links",
            json: [
                "email": "o'neil&co@example.com", "redirectUrl": EmulatorClient.redirectUrl, "fromEmail": "x@y.z", "templateId": "t"
            ])
        _ = try await client.post(
            "/api/v3/auth/magic-links",
            json: [
                "email": "lena@example.com", "redirectUrl": EmulatorClient.redirectUrl, "fromEmail": "x@y.z", "templateId": "t"
            ])
        let codeBefore = try await client.get("/emulator/v1/users/totp@example.com/totp").data?["code"] as? String ?? "missing"
        let page = try await client.get("/")
        let codeAfter = try await client.get("/emulator/v1/users/totp@example.com/totp").data?["code"] as? String ?? "missing"
        #expect(page.status == 200)
        #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
        expectQuietly(page.text.contains(#"<meta http-equiv="refresh" content="5">"#), "dashboard content")
        expectQuietly(page.text.contains("alice@example.com"), "dashboard content")
        expectQuietly(page.text.contains("lena@example.com"), "dashboard content")
        expectQuietly(page.text.contains("Open magic link"), "dashboard content")
        expectQuietly(page.text.contains("o&#39;neil&amp;co@example.com"), "dashboard content")
        expectQuietly(!page.text.contains("o'neil&co"), "dashboard content")
        // The current code (either side of a step boundary the requests may straddle).
        let codeShown = [codeBefore, codeAfter].contains { page.text.contains("<code class=\"totp\">\($0)</code>") }
        #expect(codeShown)
        expectQuietly(!page.text.lowercased().contains("<script"), "dashboard content")
    }
}
