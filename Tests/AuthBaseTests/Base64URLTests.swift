import Testing

@testable import AuthBase

@Suite("base64url")
struct Base64URLTests {
    @Test func encodesWithoutPaddingInTheURLAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.encode(Array("ab".utf8)) == "YWI")
    }

    @Test func decodesEitherAlphabetWithOrWithoutPadding() {
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("+/8=") == [0xFB, 0xFF])
        #expect(Base64URL.decode("YWI=") == Array("ab".utf8))
    }

    @Test func refusesWhatIsNotBase64() {
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("YW=I") == nil)
        #expect(Base64URL.decode("Y W I") == nil)
    }
}
