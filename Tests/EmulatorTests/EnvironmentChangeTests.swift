import Foundation
import Testing

/// Portal's dashboard settings changing under a running sign-in, and the lifetimes Portal documents.
@Suite("Environment changes at run time and the OAuth state's lifetime")
final class EnvironmentChangeTests: EmulatorSuite {
    func changeEnvironment(_ body: [String: Any]) async throws -> HTTPResult {
        try await client.post("/emulator/v1/environments/local-dev", json: body)
    }

    @Test func anEnabledProviderWithoutCredentialsRefusesEveryOAuthSignIn() async throws {
        #expect(try await client.get("/api/v3/auth/oauth/urls?redirectUrl=\(EmulatorClient.encodedRedirectUrl)").status == 200)

        let changed = try await changeEnvironment(["providersWithoutCredentials": ["APPLE"]])
        #expect(changed.status == 200)
        let refused = try await client.get("/api/v3/auth/oauth/urls?redirectUrl=\(EmulatorClient.encodedRedirectUrl)")
        #expect(refused.status == 401)
        #expect(refused.error?.contains("APPLE") == true)
        #expect(refused.data == nil, "no Google URL either: Portal refuses the whole request")

        // Apple switched off, its missing credentials no longer matter.
        _ = try await changeEnvironment(["authMethods": ["GOOGLE", "EMAIL_MAGIC_LINK"]])
        let googleOnly = try await client.get("/api/v3/auth/oauth/urls?redirectUrl=\(EmulatorClient.encodedRedirectUrl)")
        #expect(googleOnly.status == 200)
        #expect(googleOnly.data?["google"] is String)
        #expect(googleOnly.data?["apple"] == nil || googleOnly.data?["apple"] is NSNull)

        try await client.reset()
        #expect(try await client.get("/api/v3/auth/oauth/urls?redirectUrl=\(EmulatorClient.encodedRedirectUrl)").status == 200)
    }

    @Test func aMethodSwitchedOffAfterTheGrantWasIssuedRefusesItsExchange() async throws {
        let grant = try await client.googleGrant(email: "alice@example.com")
        let kept = try await client.googleGrant(email: "alice@example.com")
        _ = try await changeEnvironment(["authMethods": ["APPLE", "EMAIL_MAGIC_LINK"]])
        let refused = try await client.exchange(grant)
        #expect(refused.status == 401)
        #expect(refused.error?.contains("GOOGLE") == true)
        let sessions = try #require(try await client.state()["sessions"] as? [Any])
        #expect(sessions.isEmpty, "no session was made")

        _ = try await changeEnvironment(["authMethods": ["GOOGLE", "APPLE", "EMAIL_MAGIC_LINK"]])
        #expect(try await client.exchange(kept).status == 200, "switched on again, a grant still unspent works")
    }

    @Test func aMagicLinkSwitchedOffAfterItWasSentNoLongerSignsIn() async throws {
        #expect(
            try await client.post(
                "/api/v3/auth/magic-links",
                json: [
                    "email": "alice@example.com", "redirectUrl": EmulatorClient.redirectUrl, "fromEmail": "a@b.example", "templateId": "t"
                ]
            ).status == 200)
        let link = try #require(try await client.outbox().last?["link"] as? String)
        let grant = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "token" }?.value)
        _ = try await changeEnvironment(["authMethods": ["GOOGLE", "APPLE"]])
        #expect(try await client.exchange(grant, path: "/api/v3/auth/magic-links/validations").status == 401)
    }

    @Test func theBuiltInEnvironmentTakesALoopbackRedirectOnAnyPortAtItsPathOnly() async throws {
        // The SDK's examples and the CLI listen on a free port (RFC 8252): /auth/callback on 127.0.0.1.
        #expect(try await client.get("/api/v3/auth/oauth/urls?redirectUrl=http%3A%2F%2F127.0.0.1%3A54321%2Fauth%2Fcallback").status == 200)
        #expect(try await client.get("/api/v3/auth/oauth/urls?redirectUrl=http%3A%2F%2F127.0.0.1%3A80%2Fauth%2Fcallback").status == 200)
        #expect(try await client.get("/api/v3/auth/oauth/urls?redirectUrl=http%3A%2F%2F127.0.0.1%3A54321%2Fother").status == 401)
        #expect(try await client.get("/api/v3/auth/oauth/urls?redirectUrl=http%3A%2F%2Flocalhost%3A54321%2Fauth%2Fcallback").status == 401)
        #expect(try await client.get("/api/v3/auth/oauth/urls?redirectUrl=http%3A%2F%2F127.0.0.1%2Fauth%2Fcallback").status == 401)
    }

    @Test func anAllowListedLoopbackRedirectUrlGetsTheGrantOverPlainHttp() async throws {
        let loopback = "http://127.0.0.1:8791/cli/callback"
        let encoded = "http%3A%2F%2F127.0.0.1%3A8791%2Fcli%2Fcallback"
        #expect(try await client.get("/api/v3/auth/oauth/urls?redirectUrl=\(encoded)").status == 401, "allow-listed before the change")
        let changed = try await changeEnvironment(["redirectUrls": [EmulatorClient.redirectUrl, loopback]])
        #expect(changed.status == 200)
        #expect(changed.data?["redirectUrls"] as? [String] == [EmulatorClient.redirectUrl, loopback])

        let result = try await client.get("/api/v3/auth/oauth/urls?redirectUrl=\(encoded)")
        let google = try #require(result.data?["google"] as? String)
        let apple = try #require(result.data?["apple"] as? String)
        let redirect = try await client.completeGoogle(
            EmulatorClient.AuthorizeURLs(google: google, apple: apple), email: "alice@example.com")
        let location = try #require(redirect.location)
        #expect(redirect.status == 302)
        #expect(location.hasPrefix(loopback + "?token=pg_"))
        #expect(location.hasSuffix("&login_type=GOOGLE"))
        // Exact URLs, as Portal: another port or path is still refused.
        #expect(try await client.get("/api/v3/auth/oauth/urls?redirectUrl=http%3A%2F%2F127.0.0.1%3A8792%2Fcli%2Fcallback").status == 401)

        try await client.reset()
        #expect(try await client.get("/api/v3/auth/oauth/urls?redirectUrl=\(encoded)").status == 401, "reset restores the allow list")
    }

    @Test func aRedirectAllowListThatIsNotOneIsRefused() async throws {
        #expect(try await changeEnvironment(["redirectUrls": []]).status == 400)
        #expect(try await changeEnvironment(["redirectUrls": ["no scheme here"]]).status == 400)
        #expect(try await client.get("/api/v3/auth/oauth/urls?redirectUrl=\(EmulatorClient.encodedRedirectUrl)").status == 200)
    }

    @Test func aBadEnvironmentChangeIsRefusedAndChangesNothing() async throws {
        #expect(try await changeEnvironment(["authMethods": ["MYSPACE"]]).status == 400)
        #expect(try await client.post("/emulator/v1/environments/no-such-env", json: ["authMethods": []]).status == 404)
        let state = try await client.state()
        let methods = (state["environments"] as? [[String: Any]])?.first?["authMethods"] as? [String]
        #expect(methods == ["EMAIL_MAGIC_LINK", "GOOGLE", "APPLE"])
    }

    @Test func theOAuthStateLivesFifteenMinutes() async throws {
        let fresh = try await client.authorizeURLs()
        let stale = try await client.authorizeURLs()
        try await client.advanceClock(14 * 60)
        let inTime = EmulatorClient.appRedirectQuery(try await client.completeGoogle(fresh, email: "alice@example.com"))
        #expect(inTime["token"]?.hasPrefix("pg_") == true)
        #expect(inTime["error"] == nil)

        try await client.advanceClock(61)
        let late = EmulatorClient.appRedirectQuery(try await client.completeGoogle(stale, email: "alice@example.com"))
        #expect(late["error"] == "oauth_failed")
        #expect(late["token"] == nil)
    }
}
