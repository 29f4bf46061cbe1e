import AuthTestSupport
import Foundation
import Testing

@testable import TurnkeyAuth

@Suite("Sessions: expiry from the JWT, restore, list, sign-out, purge", .timeLimit(.minutes(1)))
struct SessionTests {
    @Test func theSessionIsReadFromItsJWT() async throws {
        let f = try TurnkeyCoreFixture()
        let result = try await f.signIn(expiresIn: 900)
        let session = try #require(try await f.auth.session())
        #expect(session == result.session)
        #expect(session.expiresAt == TurnkeyCoreFixture.start.addingTimeInterval(900))
        #expect(session.sessionType == "SESSION_TYPE_READ_WRITE")
        #expect(!session.description.contains(session.jwt))
    }

    @Test func aSessionIsRestoredByAnotherInstanceWithoutNetwork() async throws {
        let f = try TurnkeyCoreFixture()
        try await f.signIn(sessionKey: "kept")
        let requests = f.transport.requests.count
        let later = try TurnkeyAuth(
            configuration: TurnkeyCoreFixture.configuration(), transport: f.transport,
            stores: TurnkeyStores(sessions: f.sessions, keys: f.keys, pending: f.pending), crypto: f.crypto,
            clock: TurnkeyClock(now: { TurnkeyCoreFixture.start }, sleep: { _ in }))
        #expect(try await later.session(sessionKey: "kept")?.userId == "user-1")
        #expect(f.transport.requests.count == requests)
    }

    @Test func anExpiredSessionIsEndedWhenRead() async throws {
        let f = try TurnkeyCoreFixture()
        let result = try await f.signIn(expiresIn: 60)
        f.advance(seconds: 59)
        #expect(try await f.auth.session() != nil)
        f.advance(seconds: 1)
        #expect(try await f.auth.session() == nil)
        #expect(f.sessions.items.items.isEmpty)
        #expect(!f.keys.publicKeys.contains(result.session.publicKey), "the ended session's key is deleted")
    }

    @Test func anUnreadableStoredSessionIsDeletedAndReadsAsNil() async throws {
        let f = try TurnkeyCoreFixture()
        f.sessions.items.put(InMemoryTurnkeySessionStore.name(TurnkeyCoreFixture.configId, "default"), "garbage")
        #expect(try await f.auth.session() == nil)
        #expect(f.sessions.items.items.isEmpty)
    }

    @Test func aStoreFailureIsNotReadAsSignedOut() async throws {
        let f = try TurnkeyCoreFixture()
        f.sessions.items.failNext("load", SessionStoreError(.locked))
        await #expect(throws: TurnkeyAuthError.storageFailure(.session, SessionStoreError(.locked))) { try await f.auth.session() }
    }

    @Test func signOutDeletesTheSessionAndItsKeyAndLeavesTheOthers() async throws {
        let f = try TurnkeyCoreFixture()
        let a = try await f.signIn(sessionKey: "a")
        let b = try await f.signIn(.apple, sessionKey: "b")
        try await f.auth.signOut(sessionKey: "a")
        #expect(try await f.auth.sessionKeys() == ["b"])
        #expect(f.keys.publicKeys == [b.session.publicKey])
        #expect(!f.keys.publicKeys.contains(a.session.publicKey))
        try await f.auth.signOut(sessionKey: "a")
        try await f.auth.signOut(sessionKey: "never-used")
        await #expect(throws: TurnkeyAuthError.invalidArgument(name: "sessionKey")) { try await f.auth.signOut(sessionKey: "  ") }
    }

    @Test func aSignedOutSessionDoesNotComeBackThroughARedeliveredCallback() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.google)
        let callback = TurnkeyCoreFixture.idTokenCallback(TK.oidcToken(for: login.publicKey), state: login.state)
        f.transport.reply(TK.account("sub-org-1"))
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: login.publicKey)))
        _ = try await f.auth.handleRedirect(callback)
        try await f.auth.signOut()
        await #expect(throws: TurnkeyAuthError.unknownState) { try await f.auth.handleRedirect(callback) }
        #expect(try await f.auth.session() == nil)
    }

    @Test func sessionsListsTheLiveOnesAndEndsTheExpired() async throws {
        let f = try TurnkeyCoreFixture()
        try await f.signIn(sessionKey: "short", expiresIn: 30)
        try await f.signIn(.x, sessionKey: "long", expiresIn: 900)
        f.advance(seconds: 31)
        #expect(try await f.auth.sessions().map(\.sessionKey) == ["long"])
        #expect(try await f.auth.sessionKeys() == ["long"])
        #expect(f.keys.publicKeys.count == 1)
    }

    @Test func purgeEndsOldPendingSignInsAndExpiredSessionsButKeepsTheRest() async throws {
        let f = try TurnkeyCoreFixture()
        let old = try await f.startSignIn(.google)
        let live = try await f.signIn(sessionKey: "live", expiresIn: 7200)
        f.advance(seconds: 1800)
        let recent = try await f.startSignIn(.discord)
        let expired = try await f.signIn(.apple, sessionKey: "expired", expiresIn: 60)
        f.advance(seconds: 1800)
        try await f.auth.purgeExpired()

        #expect(Set(f.pending.records.keys) == [recent.state])
        #expect(try await f.auth.sessionKeys() == ["live"])
        #expect(f.keys.publicKeys == [live.session.publicKey, recent.publicKey])
        #expect(!f.keys.publicKeys.contains(old.publicKey) && !f.keys.publicKeys.contains(expired.session.publicKey))
    }

    @Test func aKeyWaitingAfterOnOAuthSuccessIsPurgedAfterTheHour() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.apple)
        _ = try await f.auth.handleRedirect(TurnkeyCoreFixture.idTokenCallback(TK.oidcToken(for: login.publicKey), state: login.state)) {
            _ in
        }
        f.advance(seconds: 3599)
        try await f.auth.purgeExpired()
        #expect(f.keys.publicKeys == [login.publicKey])
        f.advance(seconds: 1)
        try await f.auth.purgeExpired()
        #expect(f.keys.publicKeys.isEmpty && f.pending.items.items.isEmpty)
    }

    @Test func whoamiIsStampedWithTheSessionsKeyForItsOrganization() async throws {
        let f = try TurnkeyCoreFixture()
        let result = try await f.signIn(sessionKey: "main")
        f.transport.reply(TK.whoami)
        let whoami = try await f.auth.whoami(sessionKey: "main")
        #expect(
            whoami
                == TurnkeyWhoami(
                    organizationId: "sub-org-1", organizationName: "sub-org-1800000000",
                    userId: "user-1", username: "alice@example.com"))
        let request = try #require(f.transport.requests.last)
        #expect(request.url.absoluteString == "http://127.0.0.1:8790/turnkey/api/public/v1/query/whoami")
        #expect(request.bodyText == #"{"organizationId":"sub-org-1"}"#)
        let stamp = try #require(request.headers["X-Stamp"].flatMap(Base64URL.decode))
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(stamp)) as? [String: String])
        #expect(decoded["publicKey"] == result.session.publicKey)
        let signature = try #require(decoded["signature"].flatMap(Hex.decode))
        #expect(
            f.crypto.p256Verify(
                signature, message: Array(request.body ?? Data()), publicKey: try #require(Hex.decode(result.session.publicKey))),
            "the stamp signs the exact body that was sent")
    }

    @Test func whoamiNeedsALiveSession() async throws {
        let f = try TurnkeyCoreFixture()
        await #expect(throws: TurnkeyAuthError.sessionNotFound(sessionKey: "default")) { try await f.auth.whoami() }
        try await f.signIn(expiresIn: 10)
        f.advance(seconds: 10)
        await #expect(throws: TurnkeyAuthError.sessionExpired(sessionKey: "default")) { try await f.auth.whoami() }
        #expect(f.sessions.items.items.isEmpty)
    }

    @Test func userIsStampedAndNamesTheProvidersItSignsInWith() async throws {
        let f = try TurnkeyCoreFixture()
        let result = try await f.signIn(sessionKey: "main")
        f.transport.reply(
            #"{"user":{"userId":"user-1","userName":"alice","userEmail":"alice@example.com","oauthProviders":[{"providerName":"Discord","issuer":"https://auth.turnkey.com"},{"providerName":"twitter"},{"providerName":"discord"},{"providerName":"OpenID Connect Provider 1800000000"}]}}"#
        )
        let user = try await f.auth.user(sessionKey: "main")
        #expect(user == TurnkeyUser(userId: "user-1", userName: "alice", userEmail: "alice@example.com", providers: [.discord, .x]))
        let request = try #require(f.transport.requests.last)
        #expect(request.url.absoluteString == "http://127.0.0.1:8790/turnkey/api/public/v1/query/get_user")
        #expect(request.bodyText == #"{"organizationId":"sub-org-1","userId":"user-1"}"#)
        let stamp = try #require(request.headers["X-Stamp"].flatMap(Base64URL.decode))
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(stamp)) as? [String: String])
        #expect(decoded["publicKey"] == result.session.publicKey)
    }

    @Test func userWithoutAnIdIsAMalformedAnswer() async throws {
        let f = try TurnkeyCoreFixture()
        try await f.signIn(sessionKey: "main")
        f.transport.reply(#"{"user":{"userName":"alice"}}"#)
        await #expect(throws: TurnkeyAuthError.malformedResponse(path: "/public/v1/query/get_user", missing: "user.userId")) {
            _ = try await f.auth.user(sessionKey: "main")
        }
    }
}
