import Testing

@testable import AuthBase

@Suite("URLs taken apart on their bytes")
struct URLTextTests {
    @Test func splitsSchemeAuthorityPathQueryAndFragment() {
        let url = URLText("io.github.portalauth.signin://auth/callback?token=x#frag")
        #expect(url.scheme.map(url.text) == "io.github.portalauth.signin")
        #expect(url.authority.map(url.text) == "auth")
        #expect(url.text(url.path) == "/callback")
        #expect(url.query.map(url.text) == "token=x")
        #expect(url.fragment.map(url.text) == "frag")
    }

    @Test func anEmptyAuthorityAndPathAreKept() {
        let url = URLText("io.github.portalauth.signin://?id_token=a&state=b")
        #expect(url.authority.map(url.text) == "")
        #expect(url.text(url.path) == "")
        #expect(url.queryParameters["state"] == "b")
    }

    @Test func aQuestionMarkInsideTheFragmentStartsNoQuery() {
        let url = URLText("app://cb#x?token=y")
        #expect(url.query == nil)
        #expect(url.queryParameters.isEmpty)
    }

    @Test func theFragmentStartsAtTheFirstHash() {
        // Everything after the first # is fragment, a later "#" and "?token=" included: never a query.
        let url = URLText("app://auth/callback#a?token=x#b")
        #expect(url.fragment.map(url.text) == "a?token=x#b")
        #expect(url.query == nil)
        #expect(url.queryParameters.isEmpty)
    }

    @Test func theAuthorityEndsAtTheFirstSlash() {
        let url = URLText("App://Host/Auth/CallBack")
        #expect(url.authority.map(url.text) == "Host")
        #expect(url.text(url.path) == "/Auth/CallBack")
        #expect(url.normalizedTarget == Array("app://host/Auth/CallBack".utf8))
    }

    @Test func normalisationLowercasesSchemeAndAuthorityOnly() {
        #expect(
            URLText("IO.GitHub.PortalAuth.SignIn://AUTH/CallBack/?a=b#c").normalizedTarget
                == Array("io.github.portalauth.signin://auth/CallBack".utf8))
    }

    @Test func theKelvinSignIsNotTheLetterK() {
        // Unicode lowercases U+212A to "k"; a byte-level comparison must not.
        let kelvin = URLText("io.github.portal\u{212A}auth.signin://auth/callback")
        #expect(!kelvin.sameTarget(as: URLText("io.github.portalkauth.signin://auth/callback")))
    }

    @Test func canonicallyEquivalentTextIsNotTheSameTarget() {
        // "é" precomposed and "e" + U+0301 compare equal as Swift Strings, but not as bytes.
        #expect(!URLText("app://caf\u{e9}/cb").sameTarget(as: URLText("app://cafe\u{301}/cb")))
    }

    @Test func aCombiningMarkAfterTheQueryMarkStillEndsThePath() {
        let url = URLText("app://auth/callback?\u{301}token=x")
        #expect(url.text(url.path) == "/callback")
        #expect(url.sameTarget(as: URLText("app://auth/callback")))
    }

    @Test func normalisationIsIdempotent() {
        for text in ["  App://Host/Path//?q#f  ", "no-scheme", "a:b", "x://", "\u{301}?#"] {
            let once = URLText(text).normalizedTarget
            #expect(URLText(bytes: once).normalizedTarget == once)
        }
    }

    @Test func whitespaceBeforeATrailingSlashIsTrimmedToo() {
        // Found by the fuzzer: "x \r/" normalised to "x \r", which normalises again to "x".
        let url = URLText("app://auth/callback \r/")
        #expect(url.normalizedTarget == Array("app://auth/callback".utf8))
        #expect(URLText(bytes: url.normalizedTarget).normalizedTarget == url.normalizedTarget)
        #expect(URLText("\t\t\t\0\0\0auth0\r/").normalizedTarget == Array("\0\0\0auth0".utf8))
    }

    @Test func schemeNeedsALeadingLetter() {
        #expect(URLText("1bad://x").schemeName == nil)
        #expect(URLText("no-scheme-here").schemeName == nil)
        #expect(URLText("HTTPS://x").schemeName == "https")
    }
}
