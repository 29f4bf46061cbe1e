import AuthTestSupport
import Foundation
import Testing

@testable import TurnkeyAuth

@Suite("refreshSession: stamp_login with the old key for a new one", .timeLimit(.minutes(1)))
struct RefreshTests {
    /// The new key `stamp_login` asks for.
    private static func requestedKey(_ request: HTTPRequest) -> String {
        (request.jsonBody["parameters"] as? [String: Any])?["publicKey"] as? String ?? ""
    }

    /// Answers `stamp_login` with `status` and, once completed, a session for the key it asked for.
    private func answerStampLogin(_ f: TurnkeyCoreFixture, status: String = "ACTIVITY_STATUS_COMPLETED", expiresIn: TimeInterval = 900) {
        let now = f.now
        f.transport.enqueue(
            .answer { request in
                let session =
                    status == "ACTIVITY_STATUS_COMPLETED"
                    ? TK.sessionJwt(publicKey: Self.requestedKey(request), expiresAt: now.addingTimeInterval(expiresIn)) : nil
                return (200, TK.activity(status: status, session: session))
            })
    }

    @Test func theNewSessionOnANewKeyReplacesTheOldUnderTheSameSessionKey() async throws {
        let f = try TurnkeyCoreFixture()
        let old = try await f.signIn(sessionKey: "main").session
        let oldPrivateKey = try #require(f.privateKey(for: old.publicKey))
        f.advance(seconds: 600)
        answerStampLogin(f)
        let refreshed = try await f.auth.refreshSession(sessionKey: "main")

        let request = try #require(f.transport.requests.last)
        #expect(request.url.absoluteString == "http://127.0.0.1:8790/turnkey/api/public/v1/submit/stamp_login")
        let body = request.jsonBody
        #expect(body["type"] as? String == "ACTIVITY_TYPE_STAMP_LOGIN")
        #expect(body["organizationId"] as? String == "sub-org-1")
        #expect(body["timestampMs"] as? String == "1800000600000")
        let parameters = try #require(body["parameters"] as? [String: Any])
        #expect(parameters["expirationSeconds"] as? String == "900")
        #expect(parameters["invalidateExisting"] as? Bool == false)
        #expect(parameters["publicKey"] as? String == refreshed.publicKey)

        // Stamped with the OLD key over the exact body bytes.
        let stampBytes = try #require(request.headers["X-Stamp"].flatMap(Base64URL.decode))
        let stamp = try #require(try JSONSerialization.jsonObject(with: Data(stampBytes)) as? [String: String])
        #expect(stamp["publicKey"] == old.publicKey)
        let signature = try #require(stamp["signature"].flatMap(Hex.decode))
        #expect(
            f.crypto.p256Verify(
                signature, message: Array(request.body ?? Data()),
                publicKey: try f.crypto.p256PublicKey(privateKey: oldPrivateKey)))

        #expect(refreshed.publicKey != old.publicKey)
        #expect(refreshed.sessionKey == "main")
        #expect(refreshed.expiresAt == f.now.addingTimeInterval(900))
        #expect(try await f.auth.session(sessionKey: "main") == refreshed)
        #expect(f.keys.publicKeys == [refreshed.publicKey], "the old key is deleted, the new one kept")
    }

    @Test func theLifetimeIsTheCallsThenTheConfigurationsThenWalletKitsThen900() async throws {
        let explicit = try TurnkeyCoreFixture()
        try await explicit.signIn()
        answerStampLogin(explicit)
        _ = try await explicit.auth.refreshSession(expirationSeconds: "3600")
        #expect((explicit.transport.requests.last?.jsonBody["parameters"] as? [String: Any])?["expirationSeconds"] as? String == "3600")

        let configured = try TurnkeyCoreFixture { $0.sessionExpirationSeconds = "1200" }
        try await configured.signIn()
        answerStampLogin(configured)
        _ = try await configured.auth.refreshSession()
        #expect((configured.transport.requests.last?.jsonBody["parameters"] as? [String: Any])?["expirationSeconds"] as? String == "1200")

        let fromKit = try TurnkeyCoreFixture()
        fromKit.transport.reply(TK.walletKit(expiration: "450"))
        _ = try await fromKit.auth.providers()
        try await fromKit.signIn()
        answerStampLogin(fromKit)
        _ = try await fromKit.auth.refreshSession()
        #expect((fromKit.transport.requests.last?.jsonBody["parameters"] as? [String: Any])?["expirationSeconds"] as? String == "450")

        let f = try TurnkeyCoreFixture()
        await #expect(throws: TurnkeyAuthError.invalidArgument(name: "expirationSeconds")) {
            try await f.auth.refreshSession(expirationSeconds: "soon")
        }
    }

    @Test func aPendingActivityIsPolledEverySecondThreeTimes() async throws {
        let f = try TurnkeyCoreFixture()
        try await f.signIn()
        let requestedKey = Box("")
        let now = f.now
        f.transport.enqueue(
            .answer { request in
                requestedKey.withLock { $0 = Self.requestedKey(request) }
                return (200, TK.activity(status: "ACTIVITY_STATUS_PENDING", id: "act-9"))
            })
        f.transport.reply(TK.activity(status: "ACTIVITY_STATUS_PENDING", id: "act-9"))
        f.transport.enqueue(
            .answer { _ in
                (
                    200,
                    TK.activity(
                        session: TK.sessionJwt(publicKey: requestedKey.current, expiresAt: now.addingTimeInterval(900)), id: "act-9")
                )
            })
        let refreshed = try await f.auth.refreshSession()
        #expect(refreshed.publicKey == requestedKey.current)
        #expect(
            f.transport.paths.suffix(3) == [
                "/turnkey/api/public/v1/submit/stamp_login", "/turnkey/api/public/v1/query/get_activity",
                "/turnkey/api/public/v1/query/get_activity"
            ])
        #expect(f.transport.requests.last?.bodyText == #"{"activityId":"act-9","organizationId":"sub-org-1"}"#)
        #expect(f.sleeps.current == [.seconds(1), .seconds(1)])
    }

    @Test func anActivityThatNeverCompletesOrFailsKeepsTheOldSession() async throws {
        let f = try TurnkeyCoreFixture()
        let old = try await f.signIn().session
        for _ in 0..<4 { f.transport.reply(TK.activity(status: "ACTIVITY_STATUS_PENDING")) }
        await #expect(throws: TurnkeyAuthError.activityNotCompleted(status: "ACTIVITY_STATUS_PENDING")) {
            try await f.auth.refreshSession()
        }
        #expect(f.sleeps.current.count == 3)
        f.transport.reply(TK.activity(status: "ACTIVITY_STATUS_FAILED"))
        await #expect(throws: TurnkeyAuthError.activityFailed(status: "ACTIVITY_STATUS_FAILED")) { try await f.auth.refreshSession() }
        #expect(try await f.auth.session() == old)
        #expect(f.keys.publicKeys == [old.publicKey], "the unused new keys are deleted")
    }

    @Test func aRefusedSessionIsEndedAndANetworkFailureIsNot() async throws {
        let f = try TurnkeyCoreFixture()
        let old = try await f.signIn().session
        f.transport.enqueue(.fail(TransportError(.timedOut, host: "127.0.0.1")))
        await #expect(throws: TransportError(.timedOut, host: "127.0.0.1")) { try await f.auth.refreshSession() }
        #expect(try await f.auth.session() == old)
        #expect(f.keys.publicKeys == [old.publicKey])

        f.transport.reply(401, TK.error(16, "session expired"))
        await #expect(throws: TurnkeyRequestError.unauthorized(path: "/public/v1/submit/stamp_login", message: "session expired")) {
            try await f.auth.refreshSession()
        }
        #expect(try await f.auth.session() == nil)
        #expect(f.keys.publicKeys.isEmpty)
    }

    @Test func anExpiredOrMissingSessionCannotBeRefreshed() async throws {
        let f = try TurnkeyCoreFixture()
        await #expect(throws: TurnkeyAuthError.sessionNotFound(sessionKey: "default")) { try await f.auth.refreshSession() }
        try await f.signIn(expiresIn: 5)
        f.advance(seconds: 5)
        await #expect(throws: TurnkeyAuthError.sessionExpired(sessionKey: "default")) { try await f.auth.refreshSession() }
        #expect(f.keys.publicKeys.isEmpty && f.sessions.items.items.isEmpty)
    }

    @Test func aSessionForAnotherKeyOrWithoutOneIsNotStored() async throws {
        let f = try TurnkeyCoreFixture()
        let old = try await f.signIn().session
        f.transport.reply(TK.activity(session: TK.sessionJwt(publicKey: Secrets.publicKeyHex)))
        await #expect(throws: TurnkeyAuthError.sessionKeyMismatch(path: "/public/v1/submit/stamp_login")) {
            try await f.auth.refreshSession()
        }
        f.transport.reply(TK.activity(session: nil))
        await #expect(
            throws: TurnkeyAuthError.malformedResponse(
                path: "/public/v1/submit/stamp_login",
                missing: "activity.result.stampLoginResult.session")
        ) {
            try await f.auth.refreshSession()
        }
        #expect(try await f.auth.session() == old)
    }
}
