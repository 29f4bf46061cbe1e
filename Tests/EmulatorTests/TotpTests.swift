import Foundation
import Testing

/// TOTP users: the user JWT, enrolment link, codes checked against oathtool, replay and throttling.
@Suite("TOTP")
final class TotpTests: EmulatorSuite {
    private func totpExchange() async throws -> HTTPResult {
        try await client.exchange(try await client.googleGrant(email: "totp@example.com"))
    }

    private func verify(_ code: String, jwt: String) async throws -> HTTPResult {
        try await client.post("/api/v3/auth/totps/validations", json: ["code": code], headers: ["Authorization": "Bearer \(jwt)"])
    }

    /// A six-digit code that is not valid around `unixSeconds` for `secret`.
    private func wrongCode(secret: String, at unixSeconds: Int) throws -> String {
        let valid = try [-30, 0, 30].map { try OathTool.code(secret: secret, at: unixSeconds + $0) }
        return (0..<1000).map { String(format: "%06d", ($0 * 7919) % 1_000_000) }.first { !valid.contains($0) }!
    }

    @Test func aTotpUserGetsAUserJwtAndTheEnrolmentLinkNotASession() async throws {
        let exchange = try await totpExchange()
        #expect(exchange.status == 200)
        let data = exchange.data ?? [:]
        expectQuietly(data["clientSessionToken"] == nil, "no session before the TOTP code")
        let jwt = data["userJwt"] as? String ?? ""
        expectQuietly(jwt.hasPrefix("eyJ"), "jwt has the eyJ shape")
        #expect(jwt.split(separator: ".").count == 3)
        let link = data["totpLink"] as? String ?? ""
        let secret = try await client.totpSecret("totp@example.com")
        #expect(link == "otpauth://totp/Portal:totp%40example.com?secret=\(secret)&issuer=Portal&algorithm=SHA1&digits=6&period=30")
        #expect(secret.count >= 32, "at least 160 bits of base32")

        // The JWT's claims as the contract lists them.
        let payload = String(jwt.split(separator: ".")[1])
        var base64 = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let claims = (try? JSONSerialization.jsonObject(with: Data(base64Encoded: base64) ?? Data())) as? [String: Any] ?? [:]
        #expect(claims["endUserId"] as? String == data["endUserId"] as? String)
        #expect(claims["authEnvironmentId"] as? String == "local-dev")
        let iat = claims["iat"] as? Int ?? 0
        let exp = claims["exp"] as? Int ?? 0
        #expect(exp - iat == 600)
    }

    @Test func theRightCodeFromOathtoolBuysASessionAndEndsEnrolment() async throws {
        let jwt = try await totpExchange().data?["userJwt"] as? String ?? ""
        let secret = try await client.totpSecret("totp@example.com")
        let now = try await client.now()
        let accepted = try await verify(try OathTool.code(secret: secret, at: now), jwt: jwt)
        #expect(accepted.status == 200)
        let session = accepted.data?["clientSessionToken"] as? String ?? ""
        expectQuietly(session.hasPrefix("pst_"), "session has the pst_ shape")
        #expect(accepted.data?["isAccountAbstracted"] as? Bool == false)
        let me = try await client.clientsMe(session)
        #expect(me.status == 200)
        #expect(me.data?["id"] as? String == accepted.data?["clientId"] as? String)

        let later = try await totpExchange()
        #expect(later.data?["userJwt"] != nil)
        #expect(later.data?["totpLink"] == nil, "the link is only shown until the first accepted code")
    }

    @Test func aWrongCodeIs401AndDoesNotUseUpTheJwt() async throws {
        let jwt = try await totpExchange().data?["userJwt"] as? String ?? ""
        let secret = try await client.totpSecret("totp@example.com")
        let now = try await client.now()
        let wrong = try await verify(try wrongCode(secret: secret, at: now), jwt: jwt)
        #expect(wrong.status == 401)
        for malformed in ["12345", "1234567", "abcdef"] {
            #expect(try await verify(malformed, jwt: jwt).status == 401)
        }
        let right = try await verify(try OathTool.code(secret: secret, at: now), jwt: jwt)
        #expect(right.status == 200)
    }

    @Test func anAcceptedCodeIsRefusedTheSecondTime() async throws {
        let jwt = try await totpExchange().data?["userJwt"] as? String ?? ""
        let secret = try await client.totpSecret("totp@example.com")
        let code = try OathTool.code(secret: secret, at: try await client.now())
        #expect(try await verify(code, jwt: jwt).status == 200)
        let otherJwt = try await totpExchange().data?["userJwt"] as? String ?? ""
        let replay = try await verify(code, jwt: otherJwt)
        #expect(replay.status == 401)
        // The next time step's code works again.
        let next = try await client.advanceClock(30)
        #expect(try await verify(try OathTool.code(secret: secret, at: next), jwt: otherJwt).status == 200)
    }

    @Test func codesFollowTheEmulatorClockWithOneStepOfSkew() async throws {
        let jwt = try await totpExchange().data?["userJwt"] as? String ?? ""
        let secret = try await client.totpSecret("totp@example.com")
        let now = try await client.advanceClock(300)
        // Two steps away is refused; one step behind is accepted.
        #expect(try await verify(try OathTool.code(secret: secret, at: now - 61), jwt: jwt).status == 401)
        #expect(try await verify(try OathTool.code(secret: secret, at: now + 61), jwt: jwt).status == 401)
        #expect(try await verify(try OathTool.code(secret: secret, at: now - 30), jwt: jwt).status == 200)
        // The emulator's own current code (admin API) agrees with oathtool.
        let admin = try await client.get("/emulator/v1/users/totp@example.com/totp")
        let adminNow = try await client.now()
        #expect(admin.data?["code"] as? String == (try OathTool.code(secret: secret, at: adminNow)))
    }

    @Test func moreThanFiveWrongCodesIn5MinutesIs429() async throws {
        let jwt = try await totpExchange().data?["userJwt"] as? String ?? ""
        let secret = try await client.totpSecret("totp@example.com")
        let now = try await client.now()
        let wrong = try wrongCode(secret: secret, at: now)
        for _ in 0..<5 { #expect(try await verify(wrong, jwt: jwt).status == 401) }
        #expect(try await verify(wrong, jwt: jwt).status == 429)
        #expect(try await verify(try OathTool.code(secret: secret, at: now), jwt: jwt).status == 429, "even the right code waits")
        // Another user is not affected (a fresh user exchange through the other TOTP account would be needed;
        // alice has no TOTP), and after the window the right code works again.
        let later = try await client.advanceClock(301)
        let freshJwt = try await totpExchange().data?["userJwt"] as? String ?? ""
        #expect(try await verify(try OathTool.code(secret: secret, at: later), jwt: freshJwt).status == 200)
    }

    @Test func badExpiredOrForeignJwtsAre401() async throws {
        let secret = try await client.totpSecret("totp@example.com")
        let code = try OathTool.code(secret: secret, at: try await client.now())
        #expect(try await client.post("/api/v3/auth/totps/validations", json: ["code": code]).status == 401)
        #expect(try await verify(code, jwt: "eyJhbGciOiJIUzI1NiJ9.eyJlbmRVc2VySWQiOiJ4In0.forged").status == 401)
        let jwt = try await totpExchange().data?["userJwt"] as? String ?? ""
        var parts = jwt.split(separator: ".").map(String.init)
        parts[1] = parts[1].dropLast() + (parts[1].hasSuffix("A") ? "B" : "A")
        #expect(try await verify(code, jwt: parts.joined(separator: ".")).status == 401)
        #expect(
            try await client.post(
                "/api/v3/auth/totps/validations", json: ["code": code],
                headers: ["Authorization": "Bearer \(jwt)"], environment: "other"
            ).status == 401)
        let later = try await client.advanceClock(601)
        #expect(try await verify(try OathTool.code(secret: secret, at: later), jwt: jwt).status == 401)
        // A missing code field is a bad request, not a wrong code.
        let fresh = try await totpExchange().data?["userJwt"] as? String ?? ""
        #expect(
            try await client.post(
                "/api/v3/auth/totps/validations", json: ["nope": 1],
                headers: ["Authorization": "Bearer \(fresh)"]
            ).status == 400)
    }

    @Test func magicLinksLeadToTotpToo() async throws {
        let send = try await client.post(
            "/api/v3/auth/magic-links",
            json: [
                "email": "totp@example.com", "redirectUrl": EmulatorClient.redirectUrl, "fromEmail": "a@b.c", "templateId": "t"
            ])
        #expect(send.status == 200)
        let link = try await client.outbox().last?["link"] as? String ?? ""
        let token = EmulatorClient.AuthorizeURLs.query(link)["token"] ?? ""
        let exchange = try await client.exchange(token, path: "/api/v3/auth/magic-links/validations")
        #expect(exchange.data?["userJwt"] != nil)
        expectQuietly(exchange.data?["clientSessionToken"] == nil, "no session before the TOTP code")
    }
}
