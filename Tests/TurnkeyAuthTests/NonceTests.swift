import AuthTestSupport
import Testing

@testable import TurnkeyAuth

@Suite("Nonce: SHA-256 of the public key's hex text", .timeLimit(.minutes(1)))
struct NonceTests {
    @Test func turnkeysDocumentedExampleHolds() {
        let nonce = Nonce.of(publicKeyHex: "0394e549c71fa99dd5cf752fba623090be314949b74e4cdf7ca72031dd638e281a", crypto: FakeCrypto())
        #expect(nonce == "1663bba492a323085b13895634a3618792c4ec6896f3c34ef3c26396df22ef82")
    }

    @Test func theNonceIsOfTheTextNotTheKeyBytes() {
        let key = Secrets.publicKeyHex
        let nonce = Nonce.of(publicKeyHex: key, crypto: FakeCrypto())
        #expect(nonce != Hex.encode(SHA256.hash(Hex.decode(key)!)))
        #expect(nonce == nonce.lowercased() && nonce.count == 64)
    }
}
