import Foundation
import Testing

/// Sign in with Apple: form_post callback, Hide My Email relay users, email only at first consent.
@Suite("Apple sign-in")
final class AppleTests: EmulatorSuite {
    private func appleSignIn(email: String, share: String = "share") async throws -> [String: Any] {
        let redirect = try await client.completeApple(try await client.authorizeURLs(), email: email, share: share)
        let query = EmulatorClient.appRedirectQuery(redirect)
        #expect(query["login_type"] == "APPLE")
        let exchange = try await client.exchange(query["token"] ?? "")
        #expect(exchange.status == 200)
        return exchange.data ?? [:]
    }

    private func users() async throws -> [[String: Any]] { try await client.state()["users"] as? [[String: Any]] ?? [] }

    @Test func theApplePageOffersShareAndHideAndPostsToTheCallback() async throws {
        let urls = try await client.authorizeURLs()
        let page = try await client.get(urls.apple)
        #expect(page.status == 200)
        #expect(
            page.text.contains(#"<form method="post" action="\#(emulator.baseURL.absoluteString)/api/v3/auth/oauth/callback/local-dev">"#))
        #expect(page.text.contains(#"name="share" value="share" checked"#))
        #expect(page.text.contains(#"name="share" value="hide""#))
        #expect(page.text.contains("Local test environment — not the real Apple"))
        #expect(!page.text.lowercased().contains("<script"))
        // Continue is the form's first button, so Enter in the email field continues instead of cancelling.
        let continueAt = page.text.range(of: #"value="continue""#)?.lowerBound
        let cancelAt = page.text.range(of: #"value="cancel""#)?.lowerBound
        #expect(continueAt != nil && cancelAt != nil && continueAt! < cancelAt!)
    }

    @Test func sharedEmailSignsInAsThatEmailsEndUser() async throws {
        let apple = try await appleSignIn(email: "alice@example.com")
        let google = try await client.exchange(try await client.googleGrant(email: "alice@example.com")).data ?? [:]
        #expect(apple["endUserId"] as? String == google["endUserId"] as? String)
    }

    @Test func hideMyEmailIsARelayAddressAndADistinctEndUser() async throws {
        let shared = try await appleSignIn(email: "alice@example.com")
        let hidden = try await appleSignIn(email: "alice@example.com", share: "hide")
        #expect(shared["endUserId"] as? String != hidden["endUserId"] as? String)
        let relayUser = try await users().first { $0["endUserId"] as? String == hidden["endUserId"] as? String }
        let relayEmail = relayUser?["email"] as? String ?? ""
        #expect(relayEmail.hasSuffix("@privaterelay.appleid.com"))
        #expect(relayEmail != "alice@example.com")
        // The relay address is stable for that Apple account and app.
        let hiddenAgain = try await appleSignIn(email: "alice@example.com", share: "hide")
        #expect(hiddenAgain["endUserId"] as? String == hidden["endUserId"] as? String)
        // Another Apple account hiding its email gets another relay user.
        let otherHidden = try await appleSignIn(email: "dave@example.com", share: "hide")
        #expect(otherHidden["endUserId"] as? String != hidden["endUserId"] as? String)
    }

    @Test func laterSignInsFindTheUserByAppleSubWithoutTheEmail() async throws {
        let first = try await appleSignIn(email: "erin@example.com")
        let second = try await appleSignIn(email: "erin@example.com")
        #expect(first["endUserId"] as? String == second["endUserId"] as? String)
        let erins = try await users().filter { ($0["email"] as? String) == "erin@example.com" }
        #expect(erins.count == 1)

        // What Apple's form_post carried each time: the email only at first consent, the same sub always.
        let callbacks = try await client.state()["appleCallbacks"] as? [[String: Any]] ?? []
        #expect(callbacks.count == 2)
        #expect(callbacks.map { $0["emailInForm"] as? Bool } == [true, false])
        let subs = Set(callbacks.compactMap { $0["sub"] as? String })
        #expect(subs.count == 1)
        #expect(callbacks.last?["endUserId"] as? String == first["endUserId"] as? String)

        // Switching to Hide My Email is a new consent: the relay email is sent again.
        _ = try await appleSignIn(email: "erin@example.com", share: "hide")
        let afterHide = try await client.state()["appleCallbacks"] as? [[String: Any]] ?? []
        #expect(afterHide.last?["emailInForm"] as? Bool == true)
    }

    @Test func cancelAndUsedStatesEndAtTheAppWithOauthFailed() async throws {
        let urls = try await client.authorizeURLs()
        let cancelled = try await client.completeApple(urls, action: "cancel")
        #expect(cancelled.status == 302)
        expectQuietly(
            cancelled.location == "io.github.portalauth.signin://auth/callback?error=oauth_failed", "redirected with the expected URL")
        let reused = try await client.completeApple(urls, email: "alice@example.com")
        expectQuietly(
            reused.location == "io.github.portalauth.signin://auth/callback?error=oauth_failed", "redirected with the expected URL")
    }

    @Test func anIncompleteChoiceShowsApplesPageAgainWithTheStateIntact() async throws {
        let urls = try await client.authorizeURLs()
        let query = EmulatorClient.AuthorizeURLs.query(urls.apple)
        let incomplete = try await client.postForm(query["redirect_uri"] ?? "", [("state", urls.state), ("action", "continue")])
        #expect(incomplete.status == 400)
        #expect(incomplete.text.contains("Choose an account or type an email address."))
        expectQuietly(incomplete.location == nil, "no redirect")
        let redirect = try await client.completeApple(urls, email: "alice@example.com")
        #expect(EmulatorClient.appRedirectQuery(redirect)["token"] != nil)
    }

    @Test func appleDisabledEnvironmentsRefuseTheAppleCallback() async throws {
        let config = #"{"environments": [{"id": "g", "authMethods": ["GOOGLE"], "redirectUrls": ["myapp://cb"]}]}"#
        let emulator = try withConfigFile(config) { try EmulatorProcess(arguments: ["--config", $0]) }
        defer { emulator.stop() }
        let client = EmulatorClient(baseURL: emulator.baseURL, environmentId: "g", adminToken: emulator.adminToken)
        let urls = try await client.get("/api/v3/auth/oauth/urls?redirectUrl=myapp%3A%2F%2Fcb")
        let google = urls.data?["google"] as? String ?? ""
        let state = EmulatorClient.AuthorizeURLs.query(google)["state"] ?? ""
        let posted = try await client.postForm(
            "/api/v3/auth/oauth/callback/g",
            [("state", state), ("email", "alice@example.com"), ("action", "continue")])
        expectQuietly(posted.location == "myapp://cb?error=oauth_failed", "redirected with the expected URL")
    }
}
