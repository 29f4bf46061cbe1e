import AuthTestSupport
import Testing

@testable import PortalAuth

@Suite("Redirect URL matching")
struct RedirectURLMatchingTests {
    let registered = "io.github.portalauth.signin://auth/callback"

    @Test(arguments: [
        "io.github.portalauth.signin://auth/callback",
        "io.github.portalauth.signin://auth/callback?token=x",
        "io.github.portalauth.signin://auth/callback/",
        "io.github.portalauth.signin://auth/callback///?a=b",
        "io.github.portalauth.signin://auth/callback#frag",
        "IO.GitHub.PortalAuth.SignIn://AUTH/callback",
        "  io.github.portalauth.signin://auth/callback  "
    ])
    func matches(url: String) {
        #expect(RedirectURL.matches(url, redirectUrl: registered))
    }

    @Test(arguments: [
        "io.github.portalauth.signin://auth/Callback",
        "io.github.portalauth.signin://auth/callb%61ck",
        "io.github.portalauth.signin://other/callback",
        "io.github.portalauth.signin://auth/callback/extra",
        "evil.app://auth/callback",
        "https://auth/callback",
        ""
    ])
    func doesNotMatch(url: String) {
        #expect(!RedirectURL.matches(url, redirectUrl: registered))
    }

    @Test func registeredUrlIsNormalisedToo() {
        #expect(RedirectURL.matches("https://example.com/cb", redirectUrl: "HTTPS://Example.COM/cb/"))
    }

    /// PortalSwift's rule: a redirect URL without an authority (`scheme:path`) is compared lowercased as a whole.
    @Test(arguments: [
        ("myapp:callback", "MYAPP:CALLBACK", true),
        ("myapp:Callback", "myapp:callBACK?token=x", true),
        ("MyApp:Auth/Callback", "myapp:auth/callback/", true),
        ("myapp:callback", "  MyApp:CallBack#f ", true),
        ("myapp:callback", "myapp:callback2", false),
        ("myapp:callback", "myapp://callback", false),
        ("myapp:callback", "otherapp:callback", false),
        ("myapp:callback", "myapp:callb%61ck", false)
    ])
    func aRedirectUrlWithoutAnAuthorityIsComparedLowercasedAsAWhole(registered: String, url: String, matches: Bool) {
        #expect(RedirectURL.matches(url, redirectUrl: registered) == matches)
    }

    @Test func withAnAuthorityThePathStaysCaseSensitive() {
        #expect(!RedirectURL.matches("myapp://auth/CALLBACK", redirectUrl: "myapp://auth/callback"))
        #expect(!RedirectURL.matches("https://example.com/CB", redirectUrl: "https://example.com/cb"))
    }

    @Test func customSchemeDetection() {
        #expect(RedirectURL.customScheme(of: registered) == "io.github.portalauth.signin")
        #expect(RedirectURL.customScheme(of: "https://example.com/cb") == nil)
        #expect(RedirectURL.customScheme(of: "HTTP://localhost/cb") == nil)
        #expect(RedirectURL.customScheme(of: "no-scheme-here") == nil)
        #expect(RedirectURL.customScheme(of: "1bad://x") == nil)
    }
}
