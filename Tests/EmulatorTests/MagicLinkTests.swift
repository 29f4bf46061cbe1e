import Foundation
import Testing

@Suite("Magic links")
final class MagicLinkTests: EmulatorSuite {
    private func send(
        _ email: String, redirectUrl: String = EmulatorClient.redirectUrl, extra: [String: Any] = [:]
    ) async throws -> HTTPResult {
        var body: [String: Any] = ["email": email, "redirectUrl": redirectUrl, "fromEmail": "noreply@example.com", "templateId": "tmpl-1"]
        body.merge(extra) { $1 }
        return try await client.post("/api/v3/auth/magic-links", json: body)
    }

    @Test func aSentLinkLandsInTheOutboxAndValidatesToASession() async throws {
        let sent = try await send("Frank@Example.com")
        #expect(sent.status == 200)
        #expect(sent.data?["sent"] as? Bool == true)
        let outbox = try await client.outbox()
        #expect(outbox.count == 1)
        #expect(outbox.first?["email"] as? String == "frank@example.com")
        #expect((outbox.first?["sentAt"] as? String)?.isEmpty == false)
        let link = outbox.first?["link"] as? String ?? ""
        expectQuietly(link.hasPrefix(EmulatorClient.redirectUrl + "?token=pg_"), "the link is the redirect URL with a grant")
        let query = EmulatorClient.AuthorizeURLs.query(link)
        #expect(query["authMethod"] == "EMAIL_MAGIC_LINK")

        let validation = try await client.exchange(query["token"] ?? "", path: "/api/v3/auth/magic-links/validations")
        #expect(validation.status == 200)
        let session = validation.data?["clientSessionToken"] as? String ?? ""
        expectQuietly(session.hasPrefix("pst_"), "session has the pst_ shape")
        #expect(try await client.clientsMe(session).status == 200)
        // Single use, and not accepted as an OAuth grant either.
        #expect(try await client.exchange(query["token"] ?? "", path: "/api/v3/auth/magic-links/validations").status == 401)
    }

    @Test func aMagicLinkGrantIsRefusedAtTheOAuthEndpointAndStaysUsable() async throws {
        _ = try await send("gina@example.com")
        let token = EmulatorClient.AuthorizeURLs.query(try await client.outbox().last?["link"] as? String ?? "")["token"] ?? ""
        #expect(try await client.exchange(token).status == 401)
        #expect(try await client.exchange(token, path: "/api/v3/auth/magic-links/validations").status == 200)
    }

    @Test func theSameEmailIsTheSameEndUserAsItsGoogleSignIn() async throws {
        _ = try await send("alice@example.com")
        let token = EmulatorClient.AuthorizeURLs.query(try await client.outbox().last?["link"] as? String ?? "")["token"] ?? ""
        let magic = try await client.exchange(token, path: "/api/v3/auth/magic-links/validations").data ?? [:]
        let google = try await client.exchange(try await client.googleGrant(email: "alice@example.com")).data ?? [:]
        // Both exchanges must have worked: two failed ones would compare nil with nil.
        let magicUser = try #require(magic["endUserId"] as? String, "the magic link did not sign in")
        let googleUser = try #require(google["endUserId"] as? String, "the Google grant did not sign in")
        #expect(magicUser == googleUser)
    }

    @Test func refusesBadInputWithTheRightStatus() async throws {
        #expect(try await send("not-an-email").status == 400)
        #expect(try await client.post("/api/v3/auth/magic-links", json: ["redirectUrl": EmulatorClient.redirectUrl]).status == 400)
        #expect(try await send("h@example.com", extra: ["fromEmail": ""]).status == 400)
        #expect(try await send("h@example.com", extra: ["isAccountAbstracted": "yes"]).status == 400)
        let foreign = try await send("h@example.com", redirectUrl: "https://evil.example/cb")
        #expect(foreign.status == 401)
        #expect(try await client.outbox().isEmpty)
    }

    @Test func moreThanFiveLinksAMinuteForOneAddressIs429() async throws {
        for _ in 0..<5 { #expect(try await send("ivan@example.com").status == 200) }
        let limited = try await send("ivan@example.com")
        #expect(limited.status == 429)
        #expect(try await send("judy@example.com").status == 200, "other addresses are not limited")
        #expect(try await client.outbox().count == 6)
        try await client.advanceClock(61)
        #expect(try await send("ivan@example.com").status == 200)
    }

    @Test func accountAbstractionIsPassedOnOrRefusedWith400() async throws {
        #expect(try await send("kim@example.com", extra: ["isAccountAbstracted": true]).status == 200)
        let token = EmulatorClient.AuthorizeURLs.query(try await client.outbox().last?["link"] as? String ?? "")["token"] ?? ""
        let validation = try await client.exchange(token, path: "/api/v3/auth/magic-links/validations")
        #expect(validation.data?["isAccountAbstracted"] as? Bool == true)

        let config = #"{"environments": [{"id": "plain", "authMethods": ["EMAIL_MAGIC_LINK"], "redirectUrls": ["myapp://cb"]}]}"#
        let plain = try withConfigFile(config) { try EmulatorProcess(arguments: ["--config", $0]) }
        defer { plain.stop() }
        let plainClient = EmulatorClient(baseURL: plain.baseURL, environmentId: "plain", adminToken: plain.adminToken)
        let refused = try await plainClient.post(
            "/api/v3/auth/magic-links",
            json: [
                "email": "kim@example.com", "redirectUrl": "myapp://cb", "fromEmail": "a@b.c", "templateId": "t",
                "isAccountAbstracted": true
            ])
        #expect(refused.status == 400)
        #expect(refused.error?.contains("Account abstraction") == true)
        let urls = try await plainClient.get("/api/v3/auth/oauth/urls?redirectUrl=myapp%3A%2F%2Fcb&isAccountAbstracted=true")
        #expect(urls.status == 400)
    }

    @Test func environmentsWithoutMagicLinksRefuseThem() async throws {
        let config = #"{"environments": [{"id": "g", "authMethods": ["GOOGLE"], "redirectUrls": ["myapp://cb"]}]}"#
        let emulator = try withConfigFile(config) { try EmulatorProcess(arguments: ["--config", $0]) }
        defer { emulator.stop() }
        let result = try await EmulatorClient(baseURL: emulator.baseURL, environmentId: "g", adminToken: emulator.adminToken).post(
            "/api/v3/auth/magic-links",
            json: [
                "email": "a@example.com", "redirectUrl": "myapp://cb", "fromEmail": "a@b.c", "templateId": "t"
            ])
        #expect(result.status == 401)
    }
}
