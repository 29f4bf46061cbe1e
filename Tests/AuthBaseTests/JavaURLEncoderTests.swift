import AuthTestSupport
import Testing

@testable import AuthBase

@Suite("redirectUrl encoding like Java's URLEncoder")
struct JavaURLEncoderTests {
    @Test func customSchemeRedirectIsFullyEscaped() {
        #expect(
            JavaURLEncoder.encode("io.github.portalauth.signin://auth/callback")
                == "io.github.portalauth.signin%3A%2F%2Fauth%2Fcallback")
    }

    @Test func unreservedCharactersStay() {
        #expect(JavaURLEncoder.encode("AZaz09-_.*") == "AZaz09-_.*")
    }

    @Test func spaceIsPercent20AndOthersUppercaseHex() {
        #expect(JavaURLEncoder.encode("a b+c~d?e=f&g") == "a%20b%2Bc%7Ed%3Fe%3Df%26g")
    }

    @Test func nonASCIIIsUTF8Encoded() {
        #expect(JavaURLEncoder.encode("é✓") == "%C3%A9%E2%9C%93")
    }
}
