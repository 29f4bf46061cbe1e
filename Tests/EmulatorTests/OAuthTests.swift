import Foundation
import Testing

/// Google sign-in end to end, the shared single-use state, grants and sessions.
@Suite("OAuth URLs, callback, grants and sessions")
final class OAuthTests: EmulatorSuite {
    @Test func authorizeURLsShareOneStateAndPointAtTheFakeProviders() async throws {
        let urls = try await client.authorizeURLs()
        let google = EmulatorClient.AuthorizeURLs.query(urls.google)
        let apple = EmulatorClient.AuthorizeURLs.query(urls.apple)
        let callback = "\(emulator.baseURL.absoluteString)/api/v3/auth/oauth/callback/local-dev"
        #expect(urls.google.hasPrefix("\(emulator.baseURL.absoluteString)/idp/google/authorize?"))
        #expect(urls.apple.hasPrefix("\(emulator.baseURL.absoluteString)/idp/apple/authorize?"))
        #expect(google["state"] == apple["state"])
        #expect((google["state"] ?? "").count >= 20)
        #expect(google["redirect_uri"] == callback)
        #expect(apple["redirect_uri"] == callback)
        #expect(google["response_type"] == "code")
        #expect(google["scope"] == "openid email")
        #expect(apple["response_mode"] == "form_post")
        #expect(apple["scope"] == "name email")
        let again = try await client.authorizeURLs()
        #expect(again.state != urls.state)
    }

    @Test(arguments: [
        "io.github.portalauth.signin://auth/callback", // not encoded at all
        "io.github.portalauth.signin%3A%2F%2Fauth%2Fcallback%2F", // trailing slash
        "io.github.portalauth.signin%3A//auth/callback", // half encoded
        "myapp%3A%2F%2Fauth%2Fcallback", // another app
        "io.github.portalauth.signin%3a%2f%2fauth%2fcallback", // lowercase hex
        "io.github.portalauth.signin%3A%2F%2Fauth%2Fcallbac%6B", // an unreserved letter escaped
        "io%2Egithub.portalauth.signin%3A%2F%2Fauth%2Fcallback" // an escaped dot
    ])
    func redirectUrlMustMatchTheAllowListAsEncoded(wireValue: String) async throws {
        let result = try await client.get("/api/v3/auth/oauth/urls?redirectUrl=\(wireValue)")
        #expect(result.status == 401)
        #expect(result.error?.contains("allow list") == true)
    }

    @Test func theAllowListedURLEncodedLikeJavaURLEncoderIsAccepted() async throws {
        let result = try await client.get("/api/v3/auth/oauth/urls?redirectUrl=io.github.portalauth.signin%3A%2F%2Fauth%2Fcallback")
        #expect(result.status == 200)
    }

    @Test func missingRedirectUrlIs400() async throws {
        let result = try await client.get("/api/v3/auth/oauth/urls")
        #expect(result.status == 400)
        #expect(result.error?.contains("redirectUrl") == true)
    }

    @Test func googleSignInEndsInTheAppWithAGrantThatBuysASession() async throws {
        let redirect = try await client.completeGoogle(try await client.authorizeURLs(), email: "alice@example.com")
        #expect(redirect.status == 302)
        let query = EmulatorClient.appRedirectQuery(redirect)
        #expect(query["login_type"] == "GOOGLE")
        let grant = query["token"] ?? ""
        expectQuietly(grant.hasPrefix("pg_"), "grant has the pg_ shape")

        let exchange = try await client.exchange(grant)
        #expect(exchange.status == 200)
        let data = exchange.data ?? [:]
        let sessionToken = data["clientSessionToken"] as? String ?? ""
        expectQuietly(sessionToken.hasPrefix("pst_"), "sessionToken has the pst_ shape")
        #expect(data["isAccountAbstracted"] as? Bool == false)
        expectQuietly(data["userJwt"] == nil, "no user JWT for a user without TOTP")
        let endUserId = data["endUserId"] as? String
        let clientId = data["clientId"] as? String
        #expect(endUserId?.isEmpty == false)

        let me = try await client.clientsMe(sessionToken)
        #expect(me.status == 200)
        #expect(me.data?["id"] as? String == clientId)
        #expect(me.data?["endUserId"] as? String == endUserId)
        #expect(me.data?["isAccountAbstracted"] as? Bool == false)
    }

    @Test func theSameEmailIsTheSameEndUserAndClientAcrossSignIns() async throws {
        let first = try await client.exchange(try await client.googleGrant(email: "alice@example.com")).data ?? [:]
        let second = try await client.exchange(try await client.googleGrant(email: "ALICE@example.com ")).data ?? [:]
        let other = try await client.exchange(try await client.googleGrant(email: "bob@example.org")).data ?? [:]
        #expect(first["endUserId"] as? String == second["endUserId"] as? String)
        #expect(first["clientId"] as? String == second["clientId"] as? String)
        #expect(first["endUserId"] as? String != other["endUserId"] as? String)
        let sameToken = (first["clientSessionToken"] as? String) == (second["clientSessionToken"] as? String)
        #expect(!sameToken, "each sign-in gets its own session token")
    }

    @Test func aTypedEmailWinsAndAnInvalidChoiceShowsThePageAgain() async throws {
        let urls = try await client.authorizeURLs()
        let query = EmulatorClient.AuthorizeURLs.query(urls.google)
        let invalid = try await client.postForm(
            "/idp/google/authorize",
            [
                ("redirect_uri", query["redirect_uri"] ?? ""), ("state", urls.state),
                ("custom_email", "<b>not-an-email</b>"), ("action", "continue")
            ])
        #expect(invalid.status == 400)
        #expect(invalid.text.contains("Choose an account or type an email address."))
        #expect(invalid.text.contains("&lt;b&gt;not-an-email&lt;/b&gt;"))
        #expect(!invalid.text.contains("<b>not-an-email</b>"))

        // The state survived the mistake.
        let redirect = try await client.completeGoogle(urls, email: "alice@example.com", customEmail: "carol@example.net")
        let grant = EmulatorClient.appRedirectQuery(redirect)["token"] ?? ""
        let exchange = try await client.exchange(grant)
        let state = try await client.state()
        let carol = (state["users"] as? [[String: Any]] ?? []).first { $0["email"] as? String == "carol@example.net" }
        #expect(carol != nil)
        #expect(exchange.data?["endUserId"] as? String == carol?["endUserId"] as? String)
    }

    @Test func cancelEndsAtTheAppWithOauthFailedAndSpendsTheState() async throws {
        let urls = try await client.authorizeURLs()
        let cancelled = try await client.completeGoogle(urls, action: "cancel")
        #expect(cancelled.status == 302)
        expectQuietly(
            cancelled.location == "io.github.portalauth.signin://auth/callback?error=oauth_failed", "redirected with the expected URL")
        let retry = try await client.completeGoogle(urls, email: "alice@example.com")
        expectQuietly(
            retry.location == "io.github.portalauth.signin://auth/callback?error=oauth_failed", "redirected with the expected URL")
    }

    @Test func googleUseSpendsTheAppleURLToo() async throws {
        let urls = try await client.authorizeURLs()
        let google = try await client.completeGoogle(urls, email: "alice@example.com")
        #expect(EmulatorClient.appRedirectQuery(google)["token"] != nil)
        let apple = try await client.completeApple(urls, email: "alice@example.com")
        #expect(apple.status == 302)
        expectQuietly(
            apple.location == "io.github.portalauth.signin://auth/callback?error=oauth_failed", "redirected with the expected URL")

        // And the other way round.
        let fresh = try await client.authorizeURLs()
        let appleFirst = try await client.completeApple(fresh, email: "alice@example.com")
        #expect(EmulatorClient.appRedirectQuery(appleFirst)["login_type"] == "APPLE")
        let googleSecond = try await client.completeGoogle(fresh, email: "alice@example.com")
        expectQuietly(
            googleSecond.location == "io.github.portalauth.signin://auth/callback?error=oauth_failed", "redirected with the expected URL")
    }

    @Test func unknownStateGetsA400PageAndAForgedCodeFails() async throws {
        let unknown = try await client.get("/api/v3/auth/oauth/callback/local-dev?code=gc_x&state=never-issued")
        #expect(unknown.status == 400)
        #expect(unknown.header("Content-Type")?.hasPrefix("text/html") == true)
        expectQuietly(unknown.location == nil, "no redirect")
        let noState = try await client.postForm("/api/v3/auth/oauth/callback/local-dev", [("action", "continue")])
        #expect(noState.status == 400)

        let urls = try await client.authorizeURLs()
        let forged = try await client.get("/api/v3/auth/oauth/callback/local-dev?code=gc_forged&state=\(urls.state)")
        expectQuietly(
            forged.location == "io.github.portalauth.signin://auth/callback?error=oauth_failed", "redirected with the expected URL")
        let providerError = try await client.get(
            "/api/v3/auth/oauth/callback/local-dev?error=access_denied&state=\(try await client.authorizeURLs().state)")
        expectQuietly(
            providerError.location == "io.github.portalauth.signin://auth/callback?error=oauth_failed", "redirected with the expected URL")
    }

    @Test func aGrantIsSingleUseButItsSessionStaysValid() async throws {
        let grant = try await client.googleGrant(email: "alice@example.com")
        let first = try await client.exchange(grant)
        #expect(first.status == 200)
        let second = try await client.exchange(grant)
        #expect(second.status == 401)
        #expect(second.error?.isEmpty == false)
        let me = try await client.clientsMe(first.data?["clientSessionToken"] as? String ?? "")
        #expect(me.status == 200)
    }

    @Test func aGrantExpiresAfter15Minutes() async throws {
        let fresh = try await client.googleGrant(email: "alice@example.com")
        let stale = try await client.googleGrant(email: "alice@example.com")
        try await client.advanceClock(14 * 60)
        #expect(try await client.exchange(fresh).status == 200)
        try await client.advanceClock(61)
        #expect(try await client.exchange(stale).status == 401)
    }

    @Test func grantsOnlyWorkAtTheirOwnEndpointAndEnvironment() async throws {
        let grant = try await client.googleGrant(email: "alice@example.com")
        #expect(try await client.exchange(grant, path: "/api/v3/auth/magic-links/validations").status == 401)
        #expect(try await client.exchange(grant, environment: "no-such-env").status == 401)
        #expect(try await client.exchange("pg_madeup").status == 401)
        // The misplaced attempts did not spend it where it belongs.
        #expect(try await client.exchange(grant).status == 200)
    }

    @Test func accountAbstractionTravelsFromTheURLRequestToTheSession() async throws {
        let urls = try await client.authorizeURLs(accountAbstracted: true)
        let grant = EmulatorClient.appRedirectQuery(try await client.completeGoogle(urls, email: "alice@example.com"))["token"] ?? ""
        let exchange = try await client.exchange(grant)
        #expect(exchange.data?["isAccountAbstracted"] as? Bool == true)
        let me = try await client.clientsMe(exchange.data?["clientSessionToken"] as? String ?? "")
        #expect(me.data?["isAccountAbstracted"] as? Bool == true)
    }

    @Test func clientsMeRefusesUnknownRevokedAndForeignSessions() async throws {
        #expect(try await client.clientsMe("pst_unknown").status == 401)
        #expect(try await client.get("/api/v3/clients/me").status == 401)
        let token =
            try await client.exchange(try await client.googleGrant(email: "alice@example.com")).data?["clientSessionToken"] as? String ?? ""
        #expect(try await client.clientsMe(token, environment: "other").status == 401)
        #expect(try await client.clientsMe(token).status == 200)
        let revoke = try await client.post("/emulator/v1/sessions/revoke", json: [String: Any]())
        #expect(revoke.data?["revoked"] as? Int == 1)
        #expect(try await client.clientsMe(token).status == 401)
    }

    @Test func theChooserRemembersTheLastAccountUnlessAskedToSelect() async throws {
        let urls = try await client.authorizeURLs()
        let query = EmulatorClient.AuthorizeURLs.query(urls.google)
        let submit = try await client.postForm(
            "/idp/google/authorize",
            [
                ("redirect_uri", query["redirect_uri"] ?? ""), ("state", urls.state), ("email", "alice@example.com"), ("action", "continue")
            ])
        let cookie = submit.header("Set-Cookie") ?? ""
        #expect(cookie.hasPrefix("idp_last_email=alice%40example.com;"))
        let cookieHeader = ["Cookie": "idp_last_email=alice%40example.com"]

        let remembered = try await client.get(urls.google, headers: cookieHeader)
        #expect(remembered.text.contains(#"value="alice@example.com" checked"#))
        let selectAccount = try await client.get(urls.google + "&prompt=select_account", headers: cookieHeader)
        #expect(selectAccount.status == 200)
        #expect(selectAccount.text.contains(#"value="alice@example.com""#))
        #expect(!selectAccount.text.contains(#"value="alice@example.com" checked"#))
        let fresh = try await client.get(urls.google)
        #expect(!fresh.text.contains(#"value="alice@example.com" checked"#))
    }

    @Test func providerPagesRefuseForeignRedirectURIs() async throws {
        let page = try await client.get("/idp/google/authorize?client_id=x&redirect_uri=https%3A%2F%2Fevil.example%2Fcb&state=abc")
        #expect(page.status == 400)
        let post = try await client.postForm(
            "/idp/google/authorize",
            [
                ("redirect_uri", "https://evil.example/cb"), ("state", "abc"), ("email", "alice@example.com"), ("action", "continue")
            ])
        #expect(post.status == 400)
        expectQuietly(post.location == nil, "no redirect")
    }
}
