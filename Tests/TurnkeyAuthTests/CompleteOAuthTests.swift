import AuthTestSupport
import Foundation
import Testing

@testable import TurnkeyAuth

@Suite("completeOAuth: account, then login or signup, then the stored session", .timeLimit(.minutes(1)))
struct CompleteOAuthTests {
    /// A key in the store, as a sign-in (or an earlier onOAuthSuccess) leaves it.
    private func keyInStore(_ f: TurnkeyCoreFixture) async throws -> String {
        let pair = try f.crypto.generateP256()
        try await f.keys.save(privateKey: Hex.encode(pair.privateKey), publicKey: pair.publicKeyHex)
        return pair.publicKeyHex
    }

    @Test func aKnownUserLogsInToTheirSubOrganization() async throws {
        let f = try TurnkeyCoreFixture()
        let key = try await keyInStore(f)
        let token = TK.oidcToken(for: key)
        f.transport.reply(TK.account("sub-org-7"))
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: key, organizationId: "sub-org-7", userId: "user-7")))
        let result = try await f.auth.completeOAuth(oidcToken: token, publicKey: key, providerName: "google")
        #expect(result.action == .login)
        #expect(result.session.organizationId == "sub-org-7" && result.session.userId == "user-7")
        #expect(result.session.sessionKey == "default")

        #expect(f.transport.paths == ["/turnkey/auth-proxy/v1/account", "/turnkey/auth-proxy/v1/oauth_login"])
        let account = f.transport.requests[0].jsonBody
        #expect(account["filterType"] as? String == "OIDC_TOKEN")
        let login = f.transport.requests[1].jsonBody
        #expect(Set(login.keys) == ["invalidateExisting", "oidcToken", "organizationId", "publicKey"])
        #expect(login["organizationId"] as? String == "sub-org-7")
        #expect(login["publicKey"] as? String == key)
        #expect(login["invalidateExisting"] as? Bool == false)
        for request in f.transport.requests { #expect(request.headers["X-Auth-Proxy-Config-ID"] == "local-dev") }
        expectSameSecret(
            f.sessions.jwt(), TK.sessionJwt(publicKey: key, organizationId: "sub-org-7", userId: "user-7"),
            "the stored session JWT")
    }

    @Test func aNewUserIsSignedUpThenLoggedInWithoutAnOrganization() async throws {
        let f = try TurnkeyCoreFixture()
        let key = try await keyInStore(f)
        let token = TK.oidcToken(for: key)
        f.transport.reply(TK.account(nil))
        f.transport.reply(TK.signedUp)
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: key)))
        let result = try await f.auth.completeOAuth(oidcToken: token, publicKey: key, providerName: "apple")
        #expect(result.action == .signup)
        #expect(
            f.transport.paths == [
                "/turnkey/auth-proxy/v1/account", "/turnkey/auth-proxy/v1/signup_v2",
                "/turnkey/auth-proxy/v1/oauth_login"
            ])
        let signup = f.transport.requests[1].jsonBody
        #expect((signup["apiKeys"] as? [Any])?.isEmpty == true && (signup["authenticators"] as? [Any])?.isEmpty == true)
        #expect(signup["organizationName"] as? String == "sub-org-1800000000")
        // As the SDK's buildSignUpBody: no email is taken from the token.
        #expect(signup["userName"] as? String == "user-1800000000")
        #expect(signup["userEmail"] == nil)
        let providers = try #require(signup["oauthProviders"] as? [[String: Any]])
        #expect(providers.count == 1)
        #expect(providers[0]["providerName"] as? String == "apple")
        let sentToken = providers[0]["oidcToken"] as? String == token
        #expect(sentToken)
        #expect(f.transport.requests[2].jsonBody["organizationId"] == nil, "no organizationId after signup")
    }

    @Test func aTokenWithoutEmailSignsUpAUserNamedAfterTheTime() async throws {
        let f = try TurnkeyCoreFixture()
        let key = try await keyInStore(f)
        f.transport.reply(TK.account(nil))
        f.transport.reply(TK.signedUp)
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: key)))
        _ = try await f.auth.completeOAuth(oidcToken: TK.oidcToken(nonce: TK.nonce(key), email: nil), publicKey: key)
        let signup = f.transport.requests[1].jsonBody
        #expect(signup["userName"] as? String == "user-1800000000")
        #expect(signup["userEmail"] == nil)
        let providers = signup["oauthProviders"] as? [[String: Any]]
        #expect(providers?.first?["providerName"] as? String == "OpenID Connect Provider 1800000000")
    }

    @Test func secondaryClientIdsAreRegisteredAsAudiencesAtSignupOnly() async throws {
        let f = try TurnkeyCoreFixture {
            $0.clientIds = [.google: TurnkeyClientIds(primary: nil, secondary: ["web-client", " ", "ios-client"])]
        }
        let key = try await keyInStore(f)
        let token = TK.oidcToken(nonce: TK.nonce(key), iss: "https://accounts.google.com", sub: "g-123")
        f.transport.reply(TK.account(nil))
        f.transport.reply(TK.signedUp)
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: key)))
        _ = try await f.auth.completeOAuth(oidcToken: token, publicKey: key, providerName: "google", sessionKey: "a")
        let providers = try #require(f.transport.requests[1].jsonBody["oauthProviders"] as? [[String: Any]])
        #expect(providers.count == 3)
        for (entry, audience) in zip(providers.prefix(2), ["web-client", "ios-client"]) {
            #expect(entry["providerName"] as? String == "google")
            #expect(entry["oidcToken"] == nil)
            #expect(entry["oidcClaims"] as? [String: String] == ["aud": audience, "iss": "https://accounts.google.com", "sub": "g-123"])
        }
        #expect(providers[2]["oidcToken"] != nil, "the primary provider comes last")

        // A login sends no secondary IDs anywhere.
        let second = try await keyInStore(f)
        f.transport.reply(TK.account("sub-org-1"))
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: second)))
        _ = try await f.auth.completeOAuth(
            oidcToken: TK.oidcToken(nonce: TK.nonce(second)), publicKey: second,
            providerName: "google", sessionKey: "b")
        #expect(!(f.transport.requests.suffix(2).compactMap(\.bodyText).joined().contains("web-client")))

        // Another provider's secondaries stay out.
        let x = try await keyInStore(f)
        f.transport.reply(TK.account(nil))
        f.transport.reply(TK.signedUp)
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: x)))
        _ = try await f.auth.completeOAuth(
            oidcToken: TK.oidcToken(nonce: TK.nonce(x)), publicKey: x, providerName: "twitter", sessionKey: "c")
        #expect((f.transport.requests[f.transport.requests.count - 2].jsonBody["oauthProviders"] as? [Any])?.count == 1)
    }

    @Test func aTakenSessionKeyIsRefusedBeforeAnythingIsSent() async throws {
        let f = try TurnkeyCoreFixture()
        try await f.signIn(sessionKey: "main")
        let before = f.transport.requests.count
        let key = try await keyInStore(f)
        await #expect(throws: TurnkeyAuthError.keyAlreadyExists(sessionKey: "main")) {
            try await f.auth.completeOAuth(oidcToken: TK.oidcToken(for: key), publicKey: key, sessionKey: "main")
        }
        #expect(f.transport.requests.count == before)
    }

    @Test func anExpiredSessionFreesItsKeyForANewSignIn() async throws {
        let f = try TurnkeyCoreFixture()
        try await f.signIn(sessionKey: "main", expiresIn: 60)
        f.advance(seconds: 61)
        let key = try await keyInStore(f)
        f.transport.reply(TK.account("sub-org-1"))
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: key, expiresAt: f.now.addingTimeInterval(900))))
        #expect(
            try await f.auth.completeOAuth(oidcToken: TK.oidcToken(for: key), publicKey: key, sessionKey: "main").session.publicKey == key)
    }

    @Test func aPublicKeyWithoutItsPrivateKeyIsRefusedBeforeAnythingIsSent() async throws {
        let f = try TurnkeyCoreFixture()
        await #expect(throws: TurnkeyAuthError.keyNotFound(publicKey: Secrets.publicKeyHex)) {
            try await f.auth.completeOAuth(oidcToken: Secrets.oidcToken, publicKey: Secrets.publicKeyHex.uppercased())
        }
        for bad in ["", "04" + String(repeating: "a", count: 64), "02abc", String(repeating: "z", count: 66)] {
            await #expect(throws: TurnkeyAuthError.invalidArgument(name: "publicKey")) {
                try await f.auth.completeOAuth(oidcToken: Secrets.oidcToken, publicKey: bad)
            }
        }
        await #expect(throws: TurnkeyAuthError.invalidArgument(name: "oidcToken")) {
            try await f.auth.completeOAuth(oidcToken: " ", publicKey: Secrets.publicKeyHex)
        }
        #expect(f.transport.requests.isEmpty)
    }

    @Test func aTokenBoundToAnotherKeyIsRefusedBeforeAnythingIsSent() async throws {
        let f = try TurnkeyCoreFixture()
        let key = try await keyInStore(f)
        let other = try await keyInStore(f)
        await #expect(throws: TurnkeyAuthError.nonceMismatch) {
            try await f.auth.completeOAuth(oidcToken: TK.oidcToken(for: other), publicKey: key)
        }
        #expect(f.transport.requests.isEmpty)
    }

    @Test(arguments: [nil, "an-nonce-the-provider-chose"])
    func aTokenBoundThroughTknonceSignsIn(nonce: String?) async throws {
        // Turnkey binds the key through `nonce` or `tknonce`: a provider whose nonce the app does not
        // choose (an Auth0 tenant, say) carries the key's nonce in `tknonce`.
        let f = try TurnkeyCoreFixture()
        let key = try await keyInStore(f)
        let token = TK.oidcToken(nonce: nonce, tknonce: TK.nonce(key))
        f.transport.reply(TK.account("sub-org-1"))
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: key)))
        let result = try await f.auth.completeOAuth(oidcToken: token, publicKey: key)
        #expect(result.action == .login && result.session.publicKey == key)
        #expect(f.transport.paths == ["/turnkey/auth-proxy/v1/account", "/turnkey/auth-proxy/v1/oauth_login"])
        #expect(f.sessions.jwt() != nil, "the session is stored")
    }

    @Test func aTokenBoundToTheKeyThroughNeitherClaimIsRefusedBeforeAnythingIsSent() async throws {
        let f = try TurnkeyCoreFixture()
        let key = try await keyInStore(f)
        let other = try await keyInStore(f)
        for token in [
            TK.oidcToken(nonce: TK.nonce(other), tknonce: TK.nonce(other)),
            TK.oidcToken(nonce: nil, tknonce: TK.nonce(other)),
            TK.oidcToken(nonce: "", tknonce: ""),
            TK.oidcToken(nonce: TK.nonce(key).uppercased(), tknonce: TK.nonce(key).uppercased())
        ] {
            await #expect(throws: TurnkeyAuthError.nonceMismatch) {
                try await f.auth.completeOAuth(oidcToken: token, publicKey: key)
            }
        }
        #expect(f.transport.requests.isEmpty)
        #expect(f.sessions.jwt() == nil)
    }

    @Test func aSessionForAnotherKeyIsNotStored() async throws {
        let f = try TurnkeyCoreFixture()
        let key = try await keyInStore(f)
        f.transport.reply(TK.account("sub-org-1"))
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: Secrets.publicKeyHex)))
        await #expect(throws: TurnkeyAuthError.sessionKeyMismatch(path: "/v1/oauth_login")) {
            try await f.auth.completeOAuth(oidcToken: TK.oidcToken(for: key), publicKey: key)
        }
        #expect(f.sessions.items.items.isEmpty)
    }

    /// The answers by what they lack; the bodies are built inside, so no JWT is printed as a test argument.
    @Test(arguments: ["session", "exp", "jwt"])
    func anUnusableSessionAnswerIsMalformed(missing: String) async throws {
        let bodies = [
            "session": [#"{"session":""}"#, #"{}"#],
            "exp": [TK.session(Secrets.jwt(claims: ["public_key": "x", "organization_id": "o", "user_id": "u"]))],
            "jwt": [TK.session("not.a.jwt")]
        ]
        for body in bodies[missing] ?? [] { try await expectMalformed(body: body, missing: missing) }
    }

    private func expectMalformed(body: String, missing: String) async throws {
        let f = try TurnkeyCoreFixture()
        let key = try await keyInStore(f)
        f.transport.reply(TK.account("sub-org-1"))
        f.transport.reply(body)
        await #expect(throws: TurnkeyAuthError.malformedResponse(path: "/v1/oauth_login", missing: missing)) {
            try await f.auth.completeOAuth(oidcToken: TK.oidcToken(for: key), publicKey: key)
        }
        #expect(f.sessions.items.items.isEmpty)
    }

    @Test func aSessionTheStoreCannotKeepIsAStorageFailureNotASignIn() async throws {
        let f = try TurnkeyCoreFixture()
        let key = try await keyInStore(f)
        f.sessions.items.failNext("save", SessionStoreError(.notKept))
        f.transport.reply(TK.account("sub-org-1"))
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: key)))
        await #expect(throws: TurnkeyAuthError.storageFailure(.session, SessionStoreError(.notKept))) {
            try await f.auth.completeOAuth(oidcToken: TK.oidcToken(for: key), publicKey: key)
        }
        #expect(f.sessions.items.items.isEmpty)
        #expect(f.keys.publicKeys == [key], "the key stays for another try")
    }

    @Test func twoSessionKeysHoldTwoSessionsAtOnce() async throws {
        let f = try TurnkeyCoreFixture()
        let personal = try await f.signIn(.google, sessionKey: "personal")
        let work = try await f.signIn(.discord, sessionKey: "work", organizationId: "sub-org-2")
        #expect(personal.session.publicKey != work.session.publicKey)
        #expect(try await f.auth.sessionKeys() == ["personal", "work"])
        #expect(try await f.auth.session(sessionKey: "work")?.organizationId == "sub-org-2")
        #expect(try await f.auth.session(sessionKey: "personal")?.organizationId == "sub-org-1")
        #expect(try await f.auth.session() == nil, "nothing under the default key")
    }

    @Test func afterOnOAuthSuccessCompleteOAuthFinishesTheSignIn() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.google)
        let token = TK.oidcToken(for: login.publicKey)
        let success = try #require(
            try await f.auth.handleRedirect(TurnkeyCoreFixture.idTokenCallback(token, state: login.state)) { _ in }?.oauthSuccess)
        f.transport.reply(TK.account(nil))
        f.transport.reply(TK.signedUp)
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: login.publicKey)))
        let result = try await f.auth.completeOAuth(
            oidcToken: success.oidcToken, publicKey: success.publicKey,
            providerName: success.providerName, sessionKey: "later")
        #expect(result.action == .signup && result.session.sessionKey == "later")
        #expect(f.pending.items.items.isEmpty, "the waiting key now belongs to a session")
        #expect(f.keys.publicKeys == [login.publicKey])
    }
}
