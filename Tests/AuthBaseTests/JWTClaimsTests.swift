import AuthTestSupport
import Foundation
import Testing

@testable import AuthBase

@Suite("Reading a JWT's claims")
struct JWTClaimsTests {
    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func readsClaimsInEitherAlphabetPaddedOrNot(padded: Bool, standard: Bool) throws {
        let jwt = Secrets.jwt(
            claims: ["endUserId": "eu_1", "exp": 4_102_444_800, "aud": ["a", "b"], "n": 42],
            padded: padded, standardAlphabet: standard)
        let claims = try JWTClaims(jwt: jwt)
        #expect(claims.string("endUserId") == "eu_1")
        #expect(claims.expiresAt == Date(timeIntervalSince1970: 4_102_444_800))
        #expect(claims.strings("aud") == ["a", "b"])
        // A number is not a string: 42 never becomes "42".
        #expect(claims.string("n") == nil)
    }

    @Test func failuresSayWhichPartWasWrong() {
        #expect(throws: JWTClaims.Failure.malformed) { try JWTClaims(jwt: "only-one-part") }
        #expect(throws: JWTClaims.Failure.malformed) { try JWTClaims(jwt: "header..sig") }
        #expect(throws: JWTClaims.Failure.notBase64) { try JWTClaims(jwt: "h.!!!.s") }
        #expect(throws: JWTClaims.Failure.notAnObject) { try JWTClaims(jwt: "h.\(Base64URL.encode(Array("[1]".utf8))).s") }
    }

    @Test func booleansAndNumbersStayApart() throws {
        let claims = try JWTClaims(jwt: Secrets.jwt(claims: ["flag": true, "one": 1]))
        #expect(claims.values["flag"] == .bool(true))
        #expect(claims.values["one"] == .number(1))
    }
}
