import AuthBase
import Foundation
import Testing

/// Turnkey's stamped API: whoami, get_user, stamp_login and get_activity, and the stamps it refuses.
@Suite("Turnkey stamped API")
final class TurnkeyAPITests: EmulatorSuite {
    private func whoami(_ key: SessionKey, organizationId: String) async throws -> HTTPResult {
        try await client.stamped(TurnkeyWire.APIPath.whoami, ["organizationId": organizationId], key: key)
    }

    private func stampLogin(
        _ key: SessionKey, organizationId: String, newKey: SessionKey, expirationSeconds: String = "900",
        invalidateExisting: Bool = false
    ) async throws -> HTTPResult {
        try await client.stamped(
            TurnkeyWire.APIPath.stampLogin,
            [
                "type": "ACTIVITY_TYPE_STAMP_LOGIN", "timestampMs": "1796000000000", "organizationId": organizationId,
                "parameters": [
                    "expirationSeconds": expirationSeconds, "invalidateExisting": invalidateExisting, "publicKey": newKey.publicKey
                ]
            ], key: key)
    }

    private func expectStampRefused(_ result: HTTPResult, reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 401, sourceLocation: sourceLocation)
        #expect(result.turnkeyCode == 16, sourceLocation: sourceLocation)
        #expect(result.turnkeyMessage == "could not verify api key signature", sourceLocation: sourceLocation)
        #expect(result.turnkeyReason == reason, sourceLocation: sourceLocation)
    }

    @Test func aFreshSessionKeyStampsWhoamiAndGetUser() async throws {
        let (key, signIn) = try await client.turnkeyGoogleUser()
        let me = try await whoami(key, organizationId: signIn.organizationId)
        #expect(me.status == 200)
        #expect(me.json?["organizationId"] as? String == signIn.organizationId)
        #expect(me.json?["organizationName"] as? String == "Alice's org")
        #expect(me.json?["userId"] as? String == signIn.userId)
        #expect(me.json?["username"] as? String == "Alice")

        let user = try await client.stamped(
            TurnkeyWire.APIPath.getUser,
            ["organizationId": signIn.organizationId, "userId": signIn.userId], key: key)
        #expect(user.status == 200)
        let fields = try #require(user.json?["user"] as? [String: Any])
        #expect(fields["userId"] as? String == signIn.userId)
        #expect(fields["userName"] as? String == "Alice")
        #expect(fields["userEmail"] as? String == "alice@example.com")
        let provider = try #require((fields["oauthProviders"] as? [[String: Any]])?.first)
        #expect(provider["providerName"] as? String == "google")
        #expect(provider["issuer"] as? String == "\(emulator.baseURL.absoluteString)/idp/google")
        #expect(provider["audience"] as? String == "emulator-turnkey-google")
        #expect((provider["subject"] as? String)?.isEmpty == false)

        let stranger = try await client.stamped(
            TurnkeyWire.APIPath.getUser,
            ["organizationId": signIn.organizationId, "userId": "no-such-user"], key: key)
        #expect(stranger.status == 404)
        #expect(stranger.turnkeyCode == 5)
    }

    @Test func stampLoginWithTheOldKeyStartsASessionForTheNewKey() async throws {
        let (oldKey, signIn) = try await client.turnkeyGoogleUser()
        let newKey = try SessionKey()
        let now = try await client.now()
        let result = try await stampLogin(oldKey, organizationId: signIn.organizationId, newKey: newKey, expirationSeconds: "120")
        #expect(result.status == 200)
        let activity = try #require(result.json?["activity"] as? [String: Any])
        #expect(activity["status"] as? String == "ACTIVITY_STATUS_COMPLETED")
        #expect(activity["type"] as? String == "ACTIVITY_TYPE_STAMP_LOGIN")
        #expect(activity["organizationId"] as? String == signIn.organizationId)
        #expect(activity["canApprove"] as? Bool == false && activity["canReject"] as? Bool == false)
        #expect((activity["createdAt"] as? [String: Any])?["seconds"] is String)
        #expect(activity["votes"] as? [Any] != nil && (activity["fingerprint"] as? String)?.isEmpty == false)
        let activityId = try #require(activity["id"] as? String)
        let session = try #require(((activity["result"] as? [String: Any])?["stampLoginResult"] as? [String: Any])?["session"] as? String)
        let claims = try JWTClaims(jwt: session)
        #expect(claims.string("public_key") == newKey.publicKey)
        #expect(claims.string("organization_id") == signIn.organizationId)
        #expect(claims.string("user_id") == signIn.userId)
        #expect((119...122).contains(Int(claims.number("exp") ?? 0) - now))

        #expect(try await whoami(newKey, organizationId: signIn.organizationId).status == 200)
        #expect(try await whoami(oldKey, organizationId: signIn.organizationId).status == 200, "invalidateExisting false keeps the old one")
        let fetched = try await client.stamped(
            TurnkeyWire.APIPath.getActivity,
            ["organizationId": signIn.organizationId, "activityId": activityId], key: newKey)
        #expect(fetched.status == 200)
        #expect((fetched.json?["activity"] as? [String: Any])?["id"] as? String == activityId)
        let unknown = try await client.stamped(
            TurnkeyWire.APIPath.getActivity,
            ["organizationId": signIn.organizationId, "activityId": "nope"], key: newKey)
        #expect(unknown.status == 404 && unknown.turnkeyCode == 5)

        let newest = try SessionKey()
        #expect(try await stampLogin(newKey, organizationId: signIn.organizationId, newKey: newest, invalidateExisting: true).status == 200)
        expectStampRefused(try await whoami(oldKey, organizationId: signIn.organizationId), reason: "PUBLIC_KEY_UNKNOWN")
        #expect(try await whoami(newest, organizationId: signIn.organizationId).status == 200)
    }

    @Test func badStampsAreRefused() async throws {
        let (key, signIn) = try await client.turnkeyGoogleUser()
        let body = ["organizationId": signIn.organizationId]
        let path = TurnkeyWire.APIPath.whoami

        let unstamped = try await client.send(
            "POST", EmulatorClient.apiPrefix + path,
            body: try JSONSerialization.data(withJSONObject: body), contentType: "application/json")
        expectStampRefused(unstamped, reason: "STAMP_MISSING")
        expectStampRefused(try await client.stamped(path, body, key: key, stampOverride: "not*base64"), reason: "STAMP_MALFORMED")

        // Signed by another key while naming the session's key.
        let forger = try SessionKey()
        expectStampRefused(try await client.stamped(path, body, key: key, stampedBy: forger.pair), reason: "SIGNATURE_INVALID")

        // A genuine stamp, but for other bytes than the body sent.
        let signedBody = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        let stamp = try key.stamp(signedBody)
        let altered = try await client.send(
            "POST", EmulatorClient.apiPrefix + path, body: signedBody + Data(" ".utf8),
            contentType: "application/json", headers: [TurnkeyWire.Header.stamp: stamp])
        expectStampRefused(altered, reason: "SIGNATURE_INVALID")

        // A well-signed stamp from a key that holds no session.
        expectStampRefused(try await whoami(forger, organizationId: signIn.organizationId), reason: "PUBLIC_KEY_UNKNOWN")

        // Another scheme.
        let signature = try SessionKey.crypto.p256Sign(Array(signedBody), privateKey: key.pair.privateKey)
        let otherScheme = Base64URL.encode(
            Array(
                #"{"publicKey":"\#(key.publicKey)","scheme":"SIGNATURE_SCHEME_TK_API_ED25519","signature":"\#(Hex.encode(signature))"}"#
                    .utf8))
        expectStampRefused(try await client.stamped(path, body, key: key, stampOverride: otherScheme), reason: "STAMP_SCHEME_UNSUPPORTED")

        // Another user's session cannot act on this organization.
        let (bobKey, _) = try await client.turnkeyGoogleUser(email: "bob@example.org")
        expectStampRefused(try await whoami(bobKey, organizationId: signIn.organizationId), reason: "ORGANIZATION_MISMATCH")
        expectStampRefused(
            try await stampLogin(bobKey, organizationId: signIn.organizationId, newKey: try SessionKey()),
            reason: "ORGANIZATION_MISMATCH")

        #expect(try await whoami(key, organizationId: signIn.organizationId).status == 200)
    }

    @Test func anExpiredSessionIsRefusedAndCannotRefreshItself() async throws {
        let (key, signIn) = try await client.turnkeyGoogleUser()
        try await client.advanceClock(890)
        #expect(try await whoami(key, organizationId: signIn.organizationId).status == 200)
        try await client.advanceClock(11)
        let expired = try await whoami(key, organizationId: signIn.organizationId)
        #expect(expired.status == 401 && expired.turnkeyCode == 16)
        #expect(expired.turnkeyMessage == "session expired")
        let refresh = try await stampLogin(key, organizationId: signIn.organizationId, newKey: try SessionKey())
        #expect(refresh.status == 401 && refresh.turnkeyMessage == "session expired")
    }

    @Test func aPendingFaultMakesTheClientPollGetActivity() async throws {
        let (key, signIn) = try await client.turnkeyGoogleUser()
        try await client.addFault(["path": "/turnkey/api/public/v1/submit/stamp_login", "kind": "pending", "pendingAnswers": 2])
        let newKey = try SessionKey()
        let submitted = try #require(
            try await stampLogin(key, organizationId: signIn.organizationId, newKey: newKey).json?["activity"] as? [String: Any])
        #expect(submitted["status"] as? String == "ACTIVITY_STATUS_PENDING")
        expectQuietly((submitted["result"] as? [String: Any])?["stampLoginResult"] == nil, "no session while pending")
        let query = ["organizationId": signIn.organizationId, "activityId": submitted["id"] as? String ?? ""]
        let firstPoll = try await client.stamped(TurnkeyWire.APIPath.getActivity, query, key: key).json?["activity"] as? [String: Any]
        #expect(firstPoll?["status"] as? String == "ACTIVITY_STATUS_PENDING")
        let secondPoll = try await client.stamped(TurnkeyWire.APIPath.getActivity, query, key: key).json?["activity"] as? [String: Any]
        #expect(secondPoll?["status"] as? String == "ACTIVITY_STATUS_COMPLETED")
        let session = ((secondPoll?["result"] as? [String: Any])?["stampLoginResult"] as? [String: Any])?["session"] as? String
        #expect(try JWTClaims(jwt: try #require(session)).string("public_key") == newKey.publicKey)

        let misplaced = try await client.post(
            "/emulator/v1/faults", json: ["path": "/turnkey/api/public/v1/query/whoami", "kind": "pending"])
        #expect(misplaced.status == 400)
    }

    @Test func stampLoginChecksItsParameters() async throws {
        let (key, signIn) = try await client.turnkeyGoogleUser()
        let newKey = try SessionKey()
        let tooLong = try await stampLogin(key, organizationId: signIn.organizationId, newKey: newKey, expirationSeconds: "forever")
        #expect(tooLong.status == 400 && tooLong.turnkeyCode == 3)
        #expect(tooLong.turnkeyMessage?.contains("parameters.expirationSeconds") == true)
        let missing = try await client.stamped(
            TurnkeyWire.APIPath.stampLogin,
            [
                "type": "ACTIVITY_TYPE_STAMP_LOGIN", "timestampMs": "1", "organizationId": signIn.organizationId,
                "parameters": ["expirationSeconds": "900", "invalidateExisting": false]
            ], key: key)
        #expect(missing.status == 400 && missing.turnkeyMessage == "parameters.publicKey is required")
        let otherType = try await client.stamped(
            TurnkeyWire.APIPath.stampLogin,
            [
                "type": "ACTIVITY_TYPE_CREATE_WALLET", "timestampMs": "1", "organizationId": signIn.organizationId,
                "parameters": ["expirationSeconds": "900", "invalidateExisting": false, "publicKey": newKey.publicKey]
            ], key: key)
        #expect(otherType.status == 400 && otherType.turnkeyMessage?.contains("ACTIVITY_TYPE_STAMP_LOGIN") == true)
        expectStampRefused(try await whoami(newKey, organizationId: signIn.organizationId), reason: "PUBLIC_KEY_UNKNOWN")
    }
}
