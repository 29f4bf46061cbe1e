import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

@Suite("verifyTotp", .timeLimit(.minutes(1)))
struct VerifyTotpTests {
    @Test func postsTheCodeVerbatimWithTheJwtAsBearerAndSavesBeforeReturning() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.totpAccepted())
        let result = try await f.auth.verifyTotp(" 12 3456 ", userJwt: Secrets.userJwt)
        #expect(result.session.endUserId == "eu_totp")
        #expect(result.clientId == "cl_totp")
        #expect(result.isAccountAbstracted == false)

        let request = try #require(f.transport.requests.first)
        #expect(request.method == "POST")
        #expect(request.url.path == "/api/v3/auth/totps/validations")
        #expect(request.jsonBody["code"] as? String == " 12 3456 ")
        let bearer = request.headers["Authorization"] == "Bearer " + Secrets.userJwt
        #expect(bearer, "Authorization is not Bearer <userJwt>")
        #expect(request.headers["x-portal-auth-environment-id"] == "local-dev")

        let saved = f.store.stored() == PortalCoreFixture.storedSecret(endUserId: "eu_totp")
        #expect(saved, "the session was not saved before returning")
    }

    /// JWT-shaped inputs, looked up by label so the test log (which prints arguments) never shows one.
    static let readableJwts: [String: String] = [
        "url-safe, unpadded": Secrets.jwt(claims: ["endUserId": "eu_~?>"]),
        "padded": Secrets.jwt(claims: ["endUserId": "eu_~?>"], padded: true),
        "standard alphabet": Secrets.jwt(claims: ["endUserId": "eu_~?>"], standardAlphabet: true)
    ]

    @Test(arguments: ["url-safe, unpadded", "padded", "standard alphabet"])
    func endUserIdIsReadFromTheClaims(label: String) throws {
        let jwt = try #require(Self.readableJwts[label])
        #expect(try UserJwt.endUserId(from: jwt) == "eu_~?>")
    }

    /// PortalSwift's checks, in its order: the shape, claims long enough to read, base64, a JSON object, a
    /// non-blank `endUserId`.
    static let unreadableJwts: [String: (jwt: String, check: PortalAuthError.UserJwtCheck)] = [
        "one segment": ("eyJhbGciOiJIUzI1NiJ9", .shape),
        "empty claims": ("eyJhbGciOiJIUzI1NiJ9..sig", .claimsUnreadable),
        "one-character claims": ("eyJhbGciOiJIUzI1NiJ9.A.sig", .claimsUnreadable),
        "one-character claims, no signature": ("eyJhbGciOiJIUzI1NiJ9.e", .claimsUnreadable),
        "not base64": ("eyJhbGciOiJIUzI1NiJ9.e$J!.sig", .base64),
        "not JSON": ("h." + Secrets.segment(Data("hello".utf8)) + ".s", .claimsObject),
        "JSON array": ("h." + Secrets.segment(Data("[1]".utf8)) + ".s", .claimsObject),
        "no claim": (Secrets.jwt(claims: ["sub": "x"]), .endUserId),
        "blank claim": (Secrets.jwt(claims: ["endUserId": "  "]), .endUserId),
        "number claim": (Secrets.jwt(claims: ["endUserId": 42]), .endUserId),
        // Expiry is not one of them: Portal judges it (see below).
        "no claim, expired": (Secrets.jwt(claims: ["sub": "x", "exp": 601]), .endUserId)
    ]

    @Test(arguments: [
        "one segment", "empty claims", "one-character claims", "one-character claims, no signature", "not base64", "not JSON", "JSON array",
        "no claim", "blank claim", "number claim",
        "no claim, expired"
    ])
    func unreadableJwtIsRejectedBeforeAnyRequestNamingTheCheck(label: String) async throws {
        let (jwt, check) = try #require(Self.unreadableJwts[label])
        let f = try PortalCoreFixture()
        await #expect(throws: PortalAuthError.invalidUserJwt(detail: check)) {
            try await f.auth.verifyTotp("123456", userJwt: jwt)
        }
        #expect(f.transport.requests.isEmpty)
    }

    @Test func wrongCodeDoesNotUseUpTheJwt() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(401, Wire.error401)
        f.transport.reply(Wire.totpAccepted())
        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.totpValidations)) {
            try await f.auth.verifyTotp("000000", userJwt: Secrets.userJwt)
        }
        #expect(f.store.isEmpty)
        let result = try await f.auth.verifyTotp("123456", userJwt: Secrets.userJwt)
        #expect(result.session.endUserId == "eu_totp")
        #expect(f.transport.requests.count == 2)
        #expect(f.transport.requests.last?.jsonBody["code"] as? String == "123456")
    }

    @Test func onlyTheSaveFailedSoTheSameJwtFinishesItWithoutARequest() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.totpAccepted())
        f.store.failNextSave()
        await #expect(throws: PortalAuthError.self) { try await f.auth.verifyTotp("123456", userJwt: Secrets.userJwt) }
        #expect(f.store.isEmpty)

        let result = try await f.auth.verifyTotp("999999", userJwt: Secrets.userJwt)
        #expect(f.transport.requests.count == 1)
        let saved = f.store.stored() == PortalCoreFixture.storedSecret(endUserId: "eu_totp")
        #expect(saved, "the pending save was not finished")
        expectSameSecret(try? result.session.getToken(), Secrets.sessionToken, "session token mismatch")
    }

    @Test func aDifferentJwtStartsANewVerification() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.totpAccepted())
        f.transport.reply(Wire.totpAccepted(token: Secrets.otherSessionToken))
        f.store.failNextSave()
        await #expect(throws: PortalAuthError.self) { try await f.auth.verifyTotp("123456", userJwt: Secrets.userJwt) }
        _ = try await f.auth.verifyTotp("654321", userJwt: Secrets.otherUserJwt)
        #expect(f.transport.requests.count == 2)
        // The newer session is saved; the older pending one can no longer overwrite it.
        let newer = f.store.stored() == PortalCoreFixture.storedSecret(token: Secrets.otherSessionToken, endUserId: "eu_totp")
        #expect(newer, "the newer session is not the stored one")
        f.transport.reply(401, Wire.error401)
        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.totpValidations)) {
            try await f.auth.verifyTotp("123456", userJwt: Secrets.userJwt)
        }
        let stillNewer = f.store.stored() == PortalCoreFixture.storedSecret(token: Secrets.otherSessionToken, endUserId: "eu_totp")
        #expect(stillNewer, "a stale TOTP retry overwrote the newer session")
        #expect(f.transport.requests.count == 3)
    }

    @Test func aSessionSavedSinceDropsAnOlderPendingTotpSave() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.totpAccepted())
        f.store.failNextSave()
        await #expect(throws: PortalAuthError.self) { try await f.auth.verifyTotp("123456", userJwt: Secrets.userJwt) }
        // A newer sign-in, by redirect, saves its session.
        f.transport.reply(Wire.session(token: Secrets.otherSessionToken))
        _ = try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        // The older accepted code no longer finishes its save: the JWT goes to Portal again, which retired it.
        f.transport.reply(401, Wire.error401)
        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.totpValidations)) {
            try await f.auth.verifyTotp("123456", userJwt: Secrets.userJwt)
        }
        let newer = f.store.stored() == PortalCoreFixture.storedSecret(token: Secrets.otherSessionToken)
        #expect(newer, "an older pending TOTP save overwrote the newer session")
        #expect(f.transport.requests.count == 3)
    }

    @Test func pendingSaveOfAnInvalidatedSessionIsUnauthorized() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.totpAccepted())
        f.store.failNextSave()
        f.transport.reply(Wire.totpStep()) // unused: no request may be sent
        await #expect(throws: PortalAuthError.self) { try await f.auth.verifyTotp("123456", userJwt: Secrets.userJwt) }
        // Make the pending session invalid through the replay slot it also sits in.
        let pending = try #require(f.auth.replaySlot.pendingTotp(for: Secrets.userJwt))
        pending.result.session.invalidate()
        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.totpValidations)) {
            try await f.auth.verifyTotp("123456", userJwt: Secrets.userJwt)
        }
        #expect(f.transport.requests.count == 1)
        #expect(f.auth.replaySlot.pendingTotp(for: Secrets.userJwt) == nil)
    }

    @Test func answerWithoutSessionTokenIsMalformed() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"data":{"clientId":"cl_totp"}}"#)
        await #expect(throws: PortalAuthError.malformedResponse(path: "/api/v3/auth/totps/validations", missing: "clientSessionToken")) {
            try await f.auth.verifyTotp("123456", userJwt: Secrets.userJwt)
        }
        #expect(f.store.saveCount == 0)
    }

    @Test func tooManyWrongCodesIsRateLimitedWithTheServersDelay() async throws {
        let f = try PortalCoreFixture()
        f.transport.enqueue(
            .response(
                HTTPResponse(
                    status: 429, headers: ["retry-after": "120"],
                    body: Data(#"{"error":"Too many attempts"}"#.utf8))))
        await #expect(throws: PortalAuthError.rateLimited(retryAfterSeconds: 120)) {
            try await f.auth.verifyTotp("123456", userJwt: Secrets.userJwt)
        }
    }

    @Test func theServerJudgesExpirySoAUserJwtPastItsExpByTheLocalClockStillSendsTheCode() async throws {
        // As PortalSwift: a computer whose clock runs ahead must not refuse a code Portal would take.
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.totpAccepted())
        let result = try await f.auth.verifyTotp("123456", userJwt: Secrets.expiredUserJwt)
        #expect(result.session.endUserId == "eu_totp")
        #expect(f.transport.paths == ["/api/v3/auth/totps/validations"])
        #expect(f.store.saveCount == 1)
    }

    @Test func anExpiredUserJwtPortalRefusesIsUnauthorized() async throws {
        let f = try PortalCoreFixture()
        f.transport.enqueue(.response(HTTPResponse(status: 401, body: Data(Wire.error401.utf8))))
        await #expect(throws: PortalRequestsError.unauthorized(path: "/api/v3/auth/totps/validations")) {
            try await f.auth.verifyTotp("123456", userJwt: Secrets.expiredUserJwt)
        }
        #expect(f.store.saveCount == 0)
    }

    @Test func alreadyCancelledCallerSendsNoCode() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.totpAccepted())
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await f.auth.verifyTotp("123456", userJwt: Secrets.userJwt)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(f.transport.requests.isEmpty)
    }

    @Test func failedSaveAfterAnAcceptedCodeIsFinishedByRedeliveringTheGrant() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.totpStep())
        f.transport.reply(Wire.totpAccepted())
        let step = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.totpStep)
        f.store.failNextSave()
        await #expect(throws: PortalAuthError.self) { try await f.auth.verifyTotp("123456", userJwt: step.userJwt) }
        let replayed = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.authenticated)
        #expect(replayed.session.endUserId == "eu_totp")
        #expect(f.transport.requests.count == 2)
        let saved = f.store.stored() == PortalCoreFixture.storedSecret(endUserId: "eu_totp")
        #expect(saved, "the re-delivered grant did not finish the save")
    }
}
