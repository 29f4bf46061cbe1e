import AuthBase
import AuthTestSupport
import Foundation
import Testing

/// Turnkey's browser half: the hosted origin and redirect pages, the fake providers' pages in
/// Turnkey's flows, and the id_tokens they sign.
@Suite("Turnkey OAuth pages")
final class TurnkeyOAuthPagesTests: EmulatorSuite {
    private var base: String { emulator.baseURL.absoluteString }

    private func jwks(_ family: String) async throws -> HTTPResult { try await client.get("/\(family)/.well-known/jwks.json") }

    @Test func googleGoesOriginToPageToRedirectPageAndLandsInTheAppWithASignedTokenForTheNonce() async throws {
        let key = try SessionKey()
        let signIn = try await client.oidcSignIn(provider: "google", nonce: key.nonce, state: "st-google")
        #expect(signIn.providerPage.hasPrefix("\(base)/idp/google/authorize?"))
        let page = EmulatorClient.AuthorizeURLs.query(signIn.providerPage)
        #expect(page["client_id"] == "emulator-turnkey-google")
        #expect(page["redirect_uri"] == client.hostedRedirectUri)
        #expect(page["response_type"] == "code id_token")
        #expect(page["scope"] == "openid email profile")
        #expect(page["prompt"] == "select_account")
        #expect(page["nonce"] == key.nonce)
        #expect(page["state"] == "st-google")

        // The provider answers the registered redirect URI in the query; the redirect page hands it to the app.
        expectQuietly(
            signIn.providerAnswer.location?.hasPrefix(client.hostedRedirectUri + "&id_token=") == true, "id_token on the redirect page")
        expectQuietly(signIn.appRedirect.status == 302, "the redirect page redirects")
        expectQuietly(signIn.appRedirect.location?.hasPrefix("io.github.portalauth.signin://?id_token=") == true, "lands in the app")
        #expect(signIn.appQuery["state"] == "st-google")

        let token = try #require(signIn.idToken)
        let claims = try JWTClaims(jwt: token)
        #expect(claims.string("iss") == "\(base)/idp/google")
        #expect(claims.string("aud") == "emulator-turnkey-google")
        #expect(claims.string("nonce") == key.nonce)
        #expect(claims.string("email") == "alice@example.com")
        #expect(claims.string("sub")?.isEmpty == false)
        let lifetime = (claims.number("exp") ?? 0) - (claims.number("iat") ?? 0)
        #expect(lifetime == 600)

        let verified = JWKSVerifier.verifies(token, jwks: try await jwks("idp"))
        #expect(verified, "the id_token verifies against /idp/.well-known/jwks.json")
        let underTurnkeysKey = JWKSVerifier.verifies(token, jwks: try await jwks("turnkey"))
        #expect(!underTurnkeysKey, "Turnkey's key does not vouch for Google's tokens")
        let parts = token.split(separator: ".").map(String.init)
        let forgedClaims = Base64URL.encode(Array(#"{"aud":"emulator-turnkey-google","sub":"someone-else"}"#.utf8))
        let tampered = JWKSVerifier.verifies(parts[0] + "." + forgedClaims + "." + parts[2], jwks: try await jwks("idp"))
        #expect(!tampered, "changed claims no longer verify")
    }

    @Test func appleGoesTheSameWayWithAStableSubjectAndHideMyEmail() async throws {
        let key = try SessionKey()
        let shared = try await client.oidcSignIn(provider: "apple", email: "erin@example.com", nonce: key.nonce, state: "st-apple")
        let page = EmulatorClient.AuthorizeURLs.query(shared.providerPage)
        #expect(shared.providerPage.hasPrefix("\(base)/idp/apple/authorize?"))
        #expect(page["response_mode"] == "fragment")
        #expect(page["response_type"] == "code id_token")
        #expect(page["nonce"] == key.nonce)
        #expect(page["scope"] == nil)
        #expect(shared.appQuery["state"] == "st-apple")
        let sharedClaims = try JWTClaims(jwt: try #require(shared.idToken))
        #expect(sharedClaims.string("iss") == "\(base)/idp/apple")
        #expect(sharedClaims.string("aud") == "emulator-turnkey-apple")
        #expect(sharedClaims.string("nonce") == key.nonce)
        #expect(sharedClaims.string("email") == "erin@example.com")
        #expect(JWKSVerifier.verifies(try #require(shared.idToken), jwks: try await jwks("idp")))

        let hidden = try await client.oidcSignIn(provider: "apple", email: "erin@example.com", nonce: key.nonce, share: "hide")
        let hiddenClaims = try JWTClaims(jwt: try #require(hidden.idToken))
        #expect(hiddenClaims.string("sub") == sharedClaims.string("sub"))
        #expect(hiddenClaims.string("email")?.hasSuffix("@privaterelay.appleid.com") == true)
        #expect(hiddenClaims.values["is_private_email"]?.boolValue == true)
    }

    @Test func eachAccountHasItsOwnStableGoogleSubject() async throws {
        let key = try SessionKey()
        let first = try JWTClaims(jwt: try await client.idToken(email: "alice@example.com", key: key))
        let again = try JWTClaims(jwt: try await client.idToken(email: "ALICE@example.com", key: key))
        let other = try JWTClaims(jwt: try await client.idToken(email: "bob@example.org", key: key))
        #expect(first.string("sub") == again.string("sub"))
        #expect(first.string("sub") != other.string("sub"))
    }

    @Test(arguments: ["discord", "x"])
    func discordAndXPagesAnswerWithACodeAndTheState(provider: String) async throws {
        let pkce = try PKCEPair()
        let page = try await client.get(client.oauth2AuthorizeURL(provider: provider, challenge: pkce.challenge))
        #expect(page.status == 200)
        let name = provider == "discord" ? "Discord" : "X"
        #expect(page.text.contains("Local test environment — not the real \(name)"))
        #expect(page.text.contains(provider == "discord" ? "Access your email address" : "Read posts you can see"))
        #expect(!page.text.lowercased().contains("<script"))
        let form = try #require(HTMLForm(page: page.text))
        #expect(form.action == "\(base)/idp/\(provider)/authorize")
        #expect(form.hidden("code_challenge") == pkce.challenge)
        #expect(form.hidden("code_challenge_method") == "S256")
        let continueAt = page.text.range(of: #"value="continue""#)?.lowerBound
        let cancelAt = page.text.range(of: #"value="cancel""#)?.lowerBound
        #expect(continueAt != nil && cancelAt != nil && continueAt! < cancelAt!, "Enter authorizes")

        let answer = try await client.oauth2Authorize(provider: provider, pkce: pkce)
        #expect(answer.status == 302)
        expectQuietly(answer.location?.hasPrefix("io.github.portalauth.signin://?code=\(provider)c_") == true, "a code for the app")
        #expect(EmulatorClient.AuthorizeURLs.query(answer.location ?? "")["state"] == "state-2")
    }

    @Test(arguments: ["google", "apple"])
    func cancelOnTheGoogleAndApplePagesEndsInTheAppWithAccessDeniedAndTheState(provider: String) async throws {
        let signIn = try await client.oidcSignIn(provider: provider, nonce: try SessionKey().nonce, state: "st-cancel", action: "cancel")
        #expect(signIn.providerAnswer.location == client.hostedRedirectUri + "&error=access_denied&state=st-cancel")
        #expect(signIn.appRedirect.location == "io.github.portalauth.signin://?error=access_denied&state=st-cancel")
    }

    @Test(arguments: ["discord", "x"])
    func cancelOnTheDiscordAndXPagesEndsInTheAppWithAccessDeniedAndTheState(provider: String) async throws {
        let answer = try await client.oauth2Authorize(provider: provider, pkce: try PKCEPair(), action: "cancel")
        #expect(answer.status == 302)
        #expect(answer.location == "io.github.portalauth.signin://?error=access_denied&state=state-2")
    }

    @Test(arguments: [
        ("google", "https://evil.example/turnkey/oauth-redirect?scheme=io.github.portalauth.signin"),
        ("apple", "io.github.portalauth.signin://"),
        ("discord", "io.github.portalauth.signin://evil"),
        ("x", "https://evil.example/")
    ])
    func aForeignRedirectUriGetsAnErrorPageAndNoRedirect(provider: String, redirectUri: String) async throws {
        let url: String
        if provider == "google" || provider == "apple" {
            let origin = try await client.get(client.originURL(provider: provider, redirectUri: redirectUri, nonce: "n", state: "s"))
            url = try #require(origin.location)
        } else {
            url = client.oauth2AuthorizeURL(provider: provider, redirectUri: redirectUri, challenge: try PKCEPair().challenge)
        }
        let page = try await client.get(url)
        #expect(page.status == 400)
        #expect(page.location == nil)
        #expect(page.text.contains("redirect_uri not registered"))
    }

    @Test(arguments: ["discord", "x", "apple"])
    func aForeignClientIdGetsAnErrorPageAndNoRedirect(provider: String) async throws {
        let url =
            provider == "apple"
            ? try #require(
                try await client.get(client.originURL(provider: "apple", clientId: "someone-elses-app", nonce: "n", state: "s")).location)
            : client.oauth2AuthorizeURL(provider: provider, clientId: "emulator-turnkey-google", challenge: try PKCEPair().challenge)
        let page = try await client.get(url)
        #expect(page.status == 400)
        #expect(page.location == nil)
    }

    @Test func aFormWhoseRedirectUriWasChangedIsRefused() async throws {
        let pkce = try PKCEPair()
        let page = try await client.get(client.oauth2AuthorizeURL(provider: "discord", challenge: pkce.challenge))
        let form = try #require(HTMLForm(page: page.text))
        let tampered = form.hiddenFields.map { $0.0 == "redirect_uri" ? ($0.0, "https://evil.example/") : $0 }
        let answer = try await client.postForm(form.action, tampered + [("email", "alice@example.com"), ("action", "continue")])
        #expect(answer.status == 400)
        #expect(answer.location == nil)
    }

    @Test func requestsWithoutPKCEOrNonceComeBackWithInvalidRequest() async throws {
        let noChallenge = try await client.get(client.oauth2AuthorizeURL(provider: "x", challenge: ""))
        let noChallengeQuery = EmulatorClient.AuthorizeURLs.query(noChallenge.location ?? "")
        #expect(noChallenge.status == 302)
        #expect(noChallengeQuery["error"] == "invalid_request")
        #expect(noChallengeQuery["state"] == "state-2")
        let plain = try await client.get(
            client.oauth2AuthorizeURL(provider: "discord", challenge: try PKCEPair().challenge)
                .replacingOccurrences(of: "code_challenge_method=S256", with: "code_challenge_method=plain"))
        #expect(EmulatorClient.AuthorizeURLs.query(plain.location ?? "")["error"] == "invalid_request")
        let implicit = try await client.get(
            client.oauth2AuthorizeURL(provider: "discord", challenge: try PKCEPair().challenge)
                .replacingOccurrences(of: "response_type=code", with: "response_type=token"))
        #expect(EmulatorClient.AuthorizeURLs.query(implicit.location ?? "")["error"] == "unsupported_response_type")

        let origin = try await client.get(client.originURL(provider: "google", nonce: "n", state: "s"))
        let withoutNonce = try await client.get(try #require(origin.location).replacingOccurrences(of: "&nonce=n", with: ""))
        #expect(
            withoutNonce.location == client.hostedRedirectUri
                + "&error=invalid_request&error_description=nonce%20is%20required%20with%20response_type%20id_token&state=s")
    }

    @Test func noAccountChosenShowsThePageAgainWithTheRequestIntact() async throws {
        let key = try SessionKey()
        let origin = try await client.get(client.originURL(provider: "google", nonce: key.nonce, state: "s"))
        let page = try await client.get(try #require(origin.location))
        let form = try #require(HTMLForm(page: page.text))
        let retry = try await client.postForm(form.action, form.hiddenFields + [("custom_email", "<b>nope</b>"), ("action", "continue")])
        #expect(retry.status == 400)
        #expect(retry.text.contains("Choose an account or type an email address."))
        #expect(retry.text.contains("&lt;b&gt;nope&lt;/b&gt;"))
        let again = try #require(HTMLForm(page: retry.text))
        #expect(again.hidden("nonce") == key.nonce)
        let answer = try await client.postForm(
            again.action, again.hiddenFields + [("custom_email", "carol@example.net"), ("action", "continue")])
        let token = EmulatorClient.AuthorizeURLs.query(answer.location ?? "")["id_token"]
        #expect(try JWTClaims(jwt: try #require(token)).string("email") == "carol@example.net")
    }

    @Test func theOriginPageNeedsProviderClientRedirectAndNonceAndIgnoresExtraState() async throws {
        let missingNonce = try await client.get("/turnkey/oauth-origin?provider=google&clientId=a&redirectUri=b")
        #expect(missingNonce.status == 400)
        #expect(missingNonce.text.contains("nonce"))
        let discord = try await client.get("/turnkey/oauth-origin?provider=discord&clientId=a&redirectUri=b&nonce=n")
        #expect(discord.status == 400)
        #expect(discord.text.contains("The provider parameter must be google or apple."))
        let extra = try await client.get(client.originURL(provider: "google", nonce: "n", state: "s") + "&flow=signup&session=abc")
        let target = EmulatorClient.AuthorizeURLs.query(extra.location ?? "")
        #expect(extra.status == 302)
        #expect(target["flow"] == nil && target["session"] == nil)
        #expect(target["state"] == "s")
        let noState = try await client.get(client.originURL(provider: "google", nonce: "n", state: nil))
        #expect(EmulatorClient.AuthorizeURLs.query(noState.location ?? "")["state"] == nil)
    }

    @Test func theRedirectPageForwardsTheOtherParametersAsTheyCame() async throws {
        let forwarded = try await client.get("/turnkey/oauth-redirect?scheme=io.github.portalauth.signin&id_token=a.b.c&state=x%2By%20z")
        #expect(forwarded.status == 302)
        #expect(forwarded.location == "io.github.portalauth.signin://?id_token=a.b.c&state=x%2By%20z")
        let withSeparator = try await client.get("/turnkey/oauth-redirect?state=1&scheme=myapp%3A%2F%2F&code=2")
        #expect(withSeparator.location == "myapp://?state=1&code=2")
        #expect(try await client.get("/turnkey/oauth-redirect?id_token=a.b.c").status == 400)
        let notAScheme = try await client.get("/turnkey/oauth-redirect?scheme=1bad&code=2")
        #expect(notAScheme.status == 400)
        #expect(notAScheme.location == nil)
    }

    @Test func portalsGooglePageStillServesPortalBesideTurnkey() async throws {
        let key = try SessionKey()
        _ = try await client.idToken(key: key)
        let grant = try await client.googleGrant(email: "alice@example.com")
        #expect(try await client.exchange(grant).status == 200)
    }
}
