import AuthTestSupport
import Foundation
import Testing

@testable import TurnkeyAuth

@Suite("Stamper: X-Stamp over the exact body bytes", .timeLimit(.minutes(1)))
struct StamperTests {
    @Test func theStampNamesTheKeyTheSchemeAndASignatureOfTheBody() throws {
        let crypto = FakeCrypto()
        let pair = try crypto.generateP256()
        let body = Data(#"{"organizationId":"sub-org-1"}"#.utf8)
        let header = try Stamper(crypto: crypto).stamp(body, with: SigningKey(privateKey: pair.privateKey, publicKeyHex: pair.publicKeyHex))
        #expect(!header.contains("=") && !header.contains("+") && !header.contains("/"), "base64url without padding")
        let json = String(decoding: try #require(Base64URL.decode(header)), as: UTF8.self)
        let signatureHex = try #require(json.split(separator: "\"").dropFirst(11).first.map(String.init))
        #expect(json == #"{"publicKey":"\#(pair.publicKeyHex)","scheme":"SIGNATURE_SCHEME_TK_API_P256","signature":"\#(signatureHex)"}"#)
        let signature = try #require(Hex.decode(signatureHex))
        #expect(crypto.p256Verify(signature, message: Array(body), publicKey: pair.publicKey))
        #expect(!crypto.p256Verify(signature, message: Array(body) + [0x20], publicKey: pair.publicKey))
    }

    @Test func aKeyTheLibraryRefusesIsACryptoFailure() throws {
        let crypto = FakeCrypto()
        crypto.fail("sign")
        #expect(throws: TurnkeyAuthError.cryptoFailure(operation: "sign a request")) {
            try Stamper(crypto: crypto).stamp(Data(), with: SigningKey(privateKey: [UInt8](repeating: 1, count: 32), publicKeyHex: "02"))
        }
    }

    @Test func requestsCarryTheClientVersionAndJSONHeaders() async throws {
        let f = try TurnkeyCoreFixture()
        try await f.signIn()
        f.transport.reply(TK.whoami)
        _ = try await f.auth.whoami()
        for request in f.transport.requests {
            #expect(request.headers["Content-Type"] == "application/json")
            #expect(request.headers["X-Client-Version"] == "portalauth-linux/\(ProductVersion.current)")
        }
        #expect(f.transport.requests.filter { $0.headers["X-Stamp"] != nil }.map(\.url.path) == ["/turnkey/api/public/v1/query/whoami"])
    }
}
