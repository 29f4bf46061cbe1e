import AuthTestSupport
import Testing

@testable import TurnkeyAuth

/// The unit tests' SHA-256 is the real one, so nonces computed with it mean what they say.
@Suite struct CryptoFakeTests {
    @Test func sha256MatchesTheStandardsVectors() {
        #expect(Hex.encode(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Hex.encode(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let twoBlocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(Hex.encode(SHA256.hash(Array(twoBlocks.utf8))) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
