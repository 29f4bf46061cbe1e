import AuthBase
import Foundation
import Testing

/// Turnkey's Auth Proxy: the config header, completeOAuth's sequence, and every refusal.
@Suite("Turnkey Auth Proxy")
final class TurnkeyAuthProxyTests: EmulatorSuite {
    private var base: String { emulator.baseURL.absoluteString }

    private func liveSessions() async throws -> [[String: Any]] {
        try await client.turnkeyState()["sessions"] as? [[String: Any]] ?? []
    }

    /// A refusal in Turnkey's shape: the status, the gRPC code, and words naming the problem.
    private func expectRefused(
        _ result: HTTPResult, _ status: Int, code: Int, mentioning words: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == status, sourceLocation: sourceLocation)
        #expect(result.turnkeyCode == code, sourceLocation: sourceLocation)
        #expect(
            result.turnkeyMessage?.contains(words) == true, "message: \(result.turnkeyMessage ?? "none")",
            sourceLocation: sourceLocation)
        #expect(result.json?["details"] is [Any], sourceLocation: sourceLocation)
        #expect(result.json?["data"] == nil && result.json?["error"] == nil, "not Portal's shape", sourceLocation: sourceLocation)
    }

    @Test func walletKitConfigAnswersTheBuiltInLocalDevWithoutAnEnvelope() async throws {
        let result = try await client.authProxy(TurnkeyWire.AuthProxyPath.walletKitConfig, [String: Any]())
        #expect(result.status == 200)
        let body = try #require(result.json)
        #expect(body["enabledProviders"] as? [String] == ["google", "apple", "discord", "x"])
        #expect(body["sessionExpirationSeconds"] as? String == "900")
        #expect((body["organizationId"] as? String)?.count == 36)
        #expect(
            body["oauthClientIds"] as? [String: String] == [
                "google": "emulator-turnkey-google", "apple": "emulator-turnkey-apple",
                "discord": "emulator-turnkey-discord", "x": "emulator-turnkey-x"
            ])
        #expect(body["oauthRedirectUrl"] as? String == "\(base)/turnkey/oauth-redirect")
        #expect(body["data"] == nil)
    }

    @Test(arguments: [
        TurnkeyWire.AuthProxyPath.walletKitConfig, TurnkeyWire.AuthProxyPath.account, TurnkeyWire.AuthProxyPath.oauth2Authenticate,
        TurnkeyWire.AuthProxyPath.oauthLogin, TurnkeyWire.AuthProxyPath.signup
    ])
    func aMissingOrUnknownConfigIdIsRefusedOnEveryEndpoint(endpoint: String) async throws {
        let missing = try await client.authProxy(endpoint, [String: Any](), configId: nil)
        expectRefused(missing, 401, code: 16, mentioning: "X-Auth-Proxy-Config-ID")
        let unknown = try await client.authProxy(endpoint, [String: Any](), configId: "prod")
        expectRefused(unknown, 401, code: 16, mentioning: "X-Auth-Proxy-Config-ID")
    }

    @Test func aNewUserSignsUpAndLogsInAndComesBackToTheSameOrganization() async throws {
        let key = try SessionKey()
        let token = try await client.idToken(key: key)
        let account = try await client.accountOrganization(token)
        #expect(account.status == 200)
        #expect(account.json?.isEmpty == true, "no organizationId for a new user")

        let signup = try await client.signUp(token)
        #expect(signup.status == 200)
        let organizationId = try #require(signup.json?["organizationId"] as? String)
        let userId = try #require(signup.json?["userId"] as? String)
        #expect(
            organizationId
                != (try await client.authProxy(TurnkeyWire.AuthProxyPath.walletKitConfig, [String: Any]()).json?["organizationId"]
                    as? String))

        let now = try await client.now()
        let login = try await client.oauthLogin(token, key: key)
        #expect(login.status == 200)
        let session = try #require(login.json?["session"] as? String)
        let claims = try JWTClaims(jwt: session)
        #expect(claims.string("public_key") == key.publicKey)
        #expect(claims.string("session_type") == "SESSION_TYPE_READ_WRITE")
        #expect(claims.string("user_id") == userId)
        #expect(claims.string("organization_id") == organizationId)
        let expiresIn = Int(claims.number("exp") ?? 0) - now
        #expect((899...902).contains(expiresIn))
        let verified = JWKSVerifier.verifies(session, jwks: try await client.get("/turnkey/.well-known/jwks.json"))
        #expect(verified, "the session JWT verifies against Turnkey's JWKS")

        // A returning user: a new key, a new token, the same organization and user.
        let nextKey = try SessionKey()
        let nextToken = try await client.idToken(key: nextKey)
        let found = try await client.accountOrganization(nextToken)
        #expect(found.json?["organizationId"] as? String == organizationId)
        let again = try await client.oauthLogin(nextToken, key: nextKey, organizationId: organizationId)
        #expect(again.status == 200)
        let againClaims = try JWTClaims(jwt: try #require(again.json?["session"] as? String))
        #expect(againClaims.string("organization_id") == organizationId)
        #expect(againClaims.string("user_id") == userId)
        #expect(againClaims.string("public_key") == nextKey.publicKey)
        #expect(try await liveSessions().count == 2)
    }

    @Test(arguments: ["discord", "x"])
    func discordAndXCodesBecomeTurnkeyTokensThatSignUpAndLogIn(provider: String) async throws {
        let key = try SessionKey()
        let pkce = try PKCEPair()
        let code = try await client.oauth2Code(provider: provider, email: "dana@example.com", pkce: pkce)
        let result = try await client.oauth2Authenticate(provider: provider, code: code, verifier: pkce.verifier, nonce: key.nonce)
        #expect(result.status == 200)
        let token = try #require(result.json?["oidcToken"] as? String)
        let claims = try JWTClaims(jwt: token)
        #expect(claims.string("iss") == "\(base)/turnkey")
        #expect(claims.string("aud") == "emulator-turnkey-\(provider)")
        #expect(claims.string("sub")?.hasPrefix("\(provider):") == true)
        #expect(claims.string("nonce") == key.nonce)
        #expect(claims.string("email") == (provider == "discord" ? "dana@example.com" : nil))
        #expect(JWKSVerifier.verifies(token, jwks: try await client.get("/turnkey/.well-known/jwks.json")))

        let signIn = try await client.signUpAndLogIn(oidcToken: token, key: key, providerName: provider == "x" ? "twitter" : provider)
        #expect(signIn.claims?.string("organization_id") == signIn.organizationId)
        // The same account through a new code is the same subject, so the same organization.
        let otherKey = try SessionKey()
        let otherPkce = try PKCEPair()
        let second = try await client.oauth2Authenticate(
            provider: provider, code: try await client.oauth2Code(provider: provider, email: "dana@example.com", pkce: otherPkce),
            verifier: otherPkce.verifier, nonce: otherKey.nonce)
        let secondToken = try #require(second.json?["oidcToken"] as? String)
        #expect(try await client.accountOrganization(secondToken).json?["organizationId"] as? String == signIn.organizationId)
    }

    @Test func appleSignsUpAndLogsInToo() async throws {
        let key = try SessionKey()
        let token = try await client.idToken(provider: "apple", email: "erin@example.com", key: key)
        let signIn = try await client.signUpAndLogIn(oidcToken: token, key: key, providerName: "apple")
        #expect(signIn.claims?.string("user_id") == signIn.userId)
    }

    // MARK: refusals of oauth_login

    @Test func aTokenWhoseNonceIsForAnotherKeyIsRefusedAndStartsNoSession() async throws {
        let key = try SessionKey()
        let otherKey = try SessionKey()
        let token = try await client.idToken(key: key)
        #expect(try await client.signUp(token).status == 200)
        let login = try await client.oauthLogin(token, key: otherKey)
        expectRefused(login, 401, code: 16, mentioning: "nonce")
        expectQuietly(login.json?["session"] == nil, "no session handed out")
        #expect(try await liveSessions().isEmpty)
        #expect(try await client.oauthLogin(token, key: key).status == 200)
    }

    @Test func aTokenBoundThroughTknonceLogsIn() async throws {
        // Turnkey accepts the key's nonce in `nonce` or in `tknonce`; here the provider's nonce is the app's own.
        let key = try SessionKey()
        let appsOwn = try SessionKey()
        let token = try await client.idTokenFromProvider(nonce: appsOwn.nonce, tknonce: key.nonce)
        #expect(try JWTClaims(jwt: token).string("tknonce") == key.nonce)
        let signIn = try await client.signUpAndLogIn(oidcToken: token, key: key)
        #expect(signIn.claims?.string("public_key") == key.publicKey)
        #expect(try await liveSessions().count == 1)
    }

    @Test func aTokenBoundToTheKeyThroughNeitherClaimIsRefused() async throws {
        let key = try SessionKey()
        let other = try SessionKey()
        let token = try await client.idTokenFromProvider(nonce: other.nonce, tknonce: other.nonce)
        #expect(try await client.signUp(token).status == 200)
        let login = try await client.oauthLogin(token, key: key)
        expectRefused(login, 401, code: 16, mentioning: "nonce")
        expectQuietly(login.json?["session"] == nil, "no session handed out")
        let untied = try await client.idTokenFromProvider(email: "bob@example.com", nonce: other.nonce, tknonce: nil)
        #expect(try await client.signUp(untied).status == 200)
        expectRefused(try await client.oauthLogin(untied, key: key), 401, code: 16, mentioning: "nonce")
        #expect(try await liveSessions().isEmpty)
    }

    @Test(arguments: ["discord", "x"])
    func aTokenTurnkeyMintsWithoutANonceLogsIn(provider: String) async throws {
        // oauth2_authenticate's nonce is optional; the token Turnkey mints then carries none, and
        // oauth_login takes it: Turnkey issued it itself for a code only the PKCE verifier could spend.
        let key = try SessionKey()
        let pkce = try PKCEPair()
        let code = try await client.oauth2Code(provider: provider, email: "dana@example.com", pkce: pkce)
        let result = try await client.oauth2Authenticate(provider: provider, code: code, verifier: pkce.verifier, nonce: nil)
        #expect(result.status == 200, "\(result.turnkeyMessage ?? "")")
        let token = try #require(result.json?["oidcToken"] as? String)
        let claims = try JWTClaims(jwt: token)
        #expect(claims.string("nonce") == nil && claims.string("tknonce") == nil)
        let signIn = try await client.signUpAndLogIn(oidcToken: token, key: key, providerName: provider == "x" ? "twitter" : provider)
        #expect(signIn.claims?.string("public_key") == key.publicKey)
    }

    @Test func aTokenTurnkeyMintsForAnotherKeyIsStillRefused() async throws {
        let key = try SessionKey()
        let other = try SessionKey()
        let pkce = try PKCEPair()
        let code = try await client.oauth2Code(provider: "discord", pkce: pkce)
        let token = try #require(
            try await client.oauth2Authenticate(
                provider: "discord", code: code, verifier: pkce.verifier,
                nonce: other.nonce
            ).json?["oidcToken"] as? String)
        #expect(try await client.signUp(token, providerName: "discord").status == 200)
        expectRefused(try await client.oauthLogin(token, key: key), 401, code: 16, mentioning: "nonce")
        #expect(try await client.oauthLogin(token, key: other).status == 200)
    }

    @Test func anExpiredTokenIsRefusedByEveryEndpoint() async throws {
        let key = try SessionKey()
        let token = try await client.idToken(key: key)
        try await client.advanceClock(601)
        expectRefused(try await client.accountOrganization(token), 401, code: 16, mentioning: "expired")
        expectRefused(try await client.signUp(token), 401, code: 16, mentioning: "expired")
        expectRefused(try await client.oauthLogin(token, key: key), 401, code: 16, mentioning: "expired")
    }

    @Test func aForgedOrForeignTokenIsRefused() async throws {
        let key = try SessionKey()
        let token = try await client.idToken(key: key)
        let parts = token.split(separator: ".").map(String.init)
        var claims = try JWTClaims(jwt: token).values
        claims["sub"] = .string("someone-else")
        let forgedClaims = Base64URL.encode(try JSONEncoder().encode(JSONValue.object(claims)))
        expectRefused(try await client.signUp(parts[0] + "." + forgedClaims + "." + parts[2]), 401, code: 16, mentioning: "signature")
        claims["iss"] = .string("https://accounts.google.com")
        let foreign = parts[0] + "." + Base64URL.encode(try JSONEncoder().encode(JSONValue.object(claims))) + "." + parts[2]
        expectRefused(try await client.oauthLogin(foreign, key: key), 401, code: 16, mentioning: "issuer")
        expectRefused(try await client.accountOrganization("not-a-jwt"), 401, code: 16, mentioning: "not a signed JWT")
    }

    @Test func aUserWhoNeverSignedUpIsNotFoundAndAnotherOrganizationIsRefused() async throws {
        let key = try SessionKey()
        let token = try await client.idToken(email: "nobody@example.com", key: key)
        expectRefused(try await client.oauthLogin(token, key: key), 404, code: 5, mentioning: "sign up first")
        let alice = try await client.turnkeyGoogleUser()
        expectRefused(
            try await client.oauthLogin(token, key: key, organizationId: alice.signIn.organizationId),
            404, code: 5, mentioning: "sign up first")
        #expect(try await client.signUp(token, userEmail: "nobody@example.com").status == 200)
        expectRefused(
            try await client.oauthLogin(token, key: key, organizationId: alice.signIn.organizationId),
            401, code: 16, mentioning: "does not belong")
    }

    @Test func signingUpTheSameIdentityTwiceIsAConflict() async throws {
        let key = try SessionKey()
        let token = try await client.idToken(key: key)
        #expect(try await client.signUp(token).status == 200)
        expectRefused(try await client.signUp(token), 409, code: 6, mentioning: "already belongs")
    }

    @Test func secondaryAudiencesRegisteredAtSignupAreAcceptedByOauthLogin() async throws {
        let key = try SessionKey()
        let primary = try await client.idToken(key: key)
        let claims = try JWTClaims(jwt: primary)
        let secondary = ["aud": "emulator-turnkey-google-secondary", "iss": claims.string("iss") ?? "", "sub": claims.string("sub") ?? ""]
        let signup = try await client.signUp(primary, secondary: [secondary])
        let organizationId = try #require(signup.json?["organizationId"] as? String)

        // The same person through the other app (client ID) is the same user.
        let otherAppKey = try SessionKey()
        let otherAppToken = try await client.idToken(key: otherAppKey, clientId: "emulator-turnkey-google-secondary")
        #expect(try JWTClaims(jwt: otherAppToken).string("aud") == "emulator-turnkey-google-secondary")
        #expect(try await client.accountOrganization(otherAppToken).json?["organizationId"] as? String == organizationId)
        let login = try await client.oauthLogin(otherAppToken, key: otherAppKey)
        #expect(login.status == 200)
        #expect(try JWTClaims(jwt: try #require(login.json?["session"] as? String)).string("organization_id") == organizationId)

        // Someone who signed up without it cannot log in through the other app.
        let bob = try await client.turnkeyGoogleUser(email: "bob@example.org")
        let bobKey = try SessionKey()
        let bobOtherApp = try await client.idToken(email: "bob@example.org", key: bobKey, clientId: "emulator-turnkey-google-secondary")
        #expect(try await client.accountOrganization(bobOtherApp).json?["organizationId"] == nil)
        expectRefused(
            try await client.oauthLogin(bobOtherApp, key: bobKey, organizationId: bob.signIn.organizationId),
            401, code: 16, mentioning: "audience")
    }

    @Test func secondaryClaimsMustBeTheSignedUpIdentitys() async throws {
        let token = try await client.idToken(key: try SessionKey())
        let iss = try JWTClaims(jwt: token).string("iss") ?? ""
        let result = try await client.signUp(
            token, secondary: [["aud": "emulator-turnkey-google-secondary", "iss": iss, "sub": "someone-else"]])
        expectRefused(result, 400, code: 3, mentioning: "oauthProviders[0].oidcClaims")
    }

    @Test func malformedRequestsAre400NamingTheField() async throws {
        let key = try SessionKey()
        let token = try await client.idToken(key: key)
        expectRefused(
            try await client.authProxy(TurnkeyWire.AuthProxyPath.oauthLogin, ["invalidateExisting": false, "oidcToken": token]),
            400, code: 3, mentioning: "publicKey is required")
        expectRefused(
            try await client.authProxy(
                TurnkeyWire.AuthProxyPath.oauthLogin,
                ["invalidateExisting": false, "oidcToken": token, "publicKey": "02" + String(repeating: "ff", count: 32)]),
            400, code: 3, mentioning: "publicKey must be a compressed P-256 public key")
        expectRefused(
            try await client.authProxy(
                TurnkeyWire.AuthProxyPath.signup,
                ["apiKeys": [Any](), "authenticators": [Any](), "oauthProviders": [["oidcToken": token]]]),
            400, code: 3, mentioning: "oauthProviders[0].providerName is required")
        expectRefused(
            try await client.authProxy(TurnkeyWire.AuthProxyPath.signup, ["oauthProviders": [Any]()]),
            400, code: 3, mentioning: "apiKeys is required")
        expectRefused(
            try await client.authProxy(TurnkeyWire.AuthProxyPath.account, ["filterType": "EMAIL", "filterValue": "a@b.c"]),
            400, code: 3, mentioning: "filterType")
        expectRefused(
            try await client.authProxy(TurnkeyWire.AuthProxyPath.account, ["filterType": "OIDC_TOKEN", "filterValue": 42]),
            400, code: 3, mentioning: "filterValue must be a string")
        expectRefused(
            try await client.authProxy(TurnkeyWire.AuthProxyPath.walletKitConfig, body: Data("{not json".utf8)),
            400, code: 3, mentioning: "JSON object")
        let pkce = try PKCEPair()
        expectRefused(
            try await client.authProxy(
                TurnkeyWire.AuthProxyPath.oauth2Authenticate,
                [
                    "authCode": "c", "clientId": "emulator-turnkey-x", "codeVerifier": pkce.verifier, "nonce": key.nonce,
                    "provider": "OAUTH2_PROVIDER_FACEBOOK", "redirectUri": EmulatorClient.appRedirect
                ]), 400, code: 3, mentioning: "provider")
    }

    // MARK: refusals of oauth2_authenticate

    @Test func aWrongPKCEVerifierIsRefusedAndSpendsTheCode() async throws {
        let key = try SessionKey()
        let pkce = try PKCEPair()
        let otherPkce = try PKCEPair()
        let code = try await client.oauth2Code(provider: "discord", pkce: pkce)
        let wrong = try await client.oauth2Authenticate(provider: "discord", code: code, verifier: otherPkce.verifier, nonce: key.nonce)
        expectRefused(wrong, 401, code: 16, mentioning: "codeVerifier does not match")
        expectQuietly(wrong.json?["oidcToken"] == nil, "no token")
        let retry = try await client.oauth2Authenticate(provider: "discord", code: code, verifier: pkce.verifier, nonce: key.nonce)
        expectRefused(retry, 401, code: 16, mentioning: "already used")
    }

    @Test func aReusedCodeIsRefused() async throws {
        let key = try SessionKey()
        let pkce = try PKCEPair()
        let code = try await client.oauth2Code(provider: "x", pkce: pkce)
        #expect(try await client.oauth2Authenticate(provider: "x", code: code, verifier: pkce.verifier, nonce: key.nonce).status == 200)
        let reused = try await client.oauth2Authenticate(provider: "x", code: code, verifier: pkce.verifier, nonce: key.nonce)
        expectRefused(reused, 401, code: 16, mentioning: "already used")
    }

    @Test func aCodeIsBoundToItsClientRedirectUriAndLifetime() async throws {
        let key = try SessionKey()
        let pkce = try PKCEPair()
        let foreignClient = try await client.oauth2Authenticate(
            provider: "discord", code: try await client.oauth2Code(provider: "discord", pkce: pkce), verifier: pkce.verifier,
            nonce: key.nonce, clientId: "someone-elses-app")
        expectRefused(foreignClient, 400, code: 3, mentioning: "clientId")
        let otherClient = try await client.oauth2Authenticate(
            provider: "discord", code: try await client.oauth2Code(provider: "discord", pkce: pkce), verifier: pkce.verifier,
            nonce: key.nonce, clientId: "emulator-turnkey-discord-secondary")
        expectRefused(otherClient, 401, code: 16, mentioning: "another client ID")
        let foreignRedirect = try await client.oauth2Authenticate(
            provider: "discord", code: try await client.oauth2Code(provider: "discord", pkce: pkce), verifier: pkce.verifier,
            nonce: key.nonce, redirectUri: "io.github.portalauth.signin://elsewhere")
        expectRefused(foreignRedirect, 401, code: 16, mentioning: "redirectUri")

        let late = try await client.oauth2Code(provider: "discord", pkce: pkce)
        try await client.advanceClock(601)
        let expired = try await client.oauth2Authenticate(provider: "discord", code: late, verifier: pkce.verifier, nonce: key.nonce)
        expectRefused(expired, 401, code: 16, mentioning: "expired")
    }

    @Test func aDiscordCodeShownAsXIsRefusedAndStaysUsableForDiscord() async throws {
        let key = try SessionKey()
        let pkce = try PKCEPair()
        let code = try await client.oauth2Code(provider: "discord", pkce: pkce)
        let asX = try await client.oauth2Authenticate(provider: "x", code: code, verifier: pkce.verifier, nonce: key.nonce)
        expectRefused(asX, 401, code: 16, mentioning: "authorization code")
        #expect(
            try await client.oauth2Authenticate(provider: "discord", code: code, verifier: pkce.verifier, nonce: key.nonce).status == 200)
    }

    @Test func sessionsExpireByTheEmulatorsClock() async throws {
        let key = try SessionKey()
        let token = try await client.idToken(key: key)
        #expect(try await client.signUp(token).status == 200)
        try await client.advanceClock(300)
        let now = try await client.now()
        let login = try await client.oauthLogin(token, key: key)
        let exp = Int(try JWTClaims(jwt: try #require(login.json?["session"] as? String)).number("exp") ?? 0)
        #expect((899...902).contains(exp - now))
        #expect(try await liveSessions().count == 1)
        try await client.advanceClock(901)
        #expect(try await liveSessions().isEmpty)
    }
}
