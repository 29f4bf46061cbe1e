import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

@Suite("PortalAuth construction")
struct PortalAuthInitTests {
    private func make(
        _ id: String = "local-dev", _ redirect: String = PortalCoreFixture.redirectUrl,
        apiHost: String = "api.portalhq.io", transport: ScriptedTransport = ScriptedTransport(),
        store: InMemoryPortalSessionStore = InMemoryPortalSessionStore()
    ) throws -> PortalAuth {
        try PortalAuth(authEnvironmentId: id, redirectUrl: redirect, apiHost: apiHost, transport: transport, sessionStore: store)
    }

    @Test func blankAuthEnvironmentIdIsRejectedFirst() {
        #expect(throws: PortalAuthError.invalidArgument(name: "authEnvironmentId")) { try make("  \n", "  ") }
        #expect(throws: PortalAuthError.invalidArgument(name: "authEnvironmentId")) { try make("", PortalCoreFixture.redirectUrl) }
    }

    /// The settings screen's check, written without Foundation, refuses exactly what Foundation's
    /// white space, line break and control character sets hold, below plane 14 (where Foundation's
    /// set also holds unassigned scalars and variation selectors but, oddly, not U+E0000); in plane
    /// 14 it refuses the tag characters.
    @Test func authEnvironmentIdRefusesWhatFoundationCallsSpaceOrControl() {
        #expect(!PortalAuth.isValidAuthEnvironmentId("env\u{E0001}id") && !PortalAuth.isValidAuthEnvironmentId("env\u{E0041}"))
        var refused = 0
        for value in 0..<0xE0000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected = !(CharacterSet.whitespacesAndNewlines.contains(scalar) || CharacterSet.controlCharacters.contains(scalar))
            if PortalAuth.isValidAuthEnvironmentId("env\(scalar)id") != expected {
                Issue.record("U+\(String(value, radix: 16)) should be \(expected ? "accepted" : "refused")")
            }
            if !expected { refused += 1 }
        }
        #expect(refused > 100)
        #expect(PortalAuth.isValidAuthEnvironmentId("local-dev"))
        #expect(!PortalAuth.isValidAuthEnvironmentId(" \t"))
    }

    @Test func blankRedirectUrlIsRejected() {
        #expect(throws: PortalAuthError.invalidArgument(name: "redirectUrl")) { try make("local-dev", " \t ") }
    }

    @Test func redirectUrlIsStoredTrimmed() throws {
        let auth = try make("local-dev", "  io.github.portalauth.signin://auth/callback \n")
        #expect(auth.redirectUrl == "io.github.portalauth.signin://auth/callback")
        #expect(auth.authEnvironmentId == "local-dev")
    }

    @Test func defaultApiHostIsPortalOverHttps() throws {
        let auth = try PortalAuth(
            authEnvironmentId: "env", redirectUrl: PortalCoreFixture.redirectUrl,
            transport: ScriptedTransport(), sessionStore: InMemoryPortalSessionStore())
        #expect(auth.apiBaseURL.absoluteString == "https://api.portalhq.io")
        #expect(auth.prefersEphemeralWebBrowserSession == false)
    }

    @Test(arguments: [
        ("127.0.0.1:8790", "http://127.0.0.1:8790"),
        ("localhost", "http://localhost"),
        ("LOCALHOST:9000", "http://LOCALHOST:9000"),
        ("api.portalhq.io", "https://api.portalhq.io"),
        ("localhost.evil.example", "https://localhost.evil.example"),
        ("127.0.0.1.evil.example:443", "https://127.0.0.1.evil.example:443"),
        ("https://api.example.com/", "https://api.example.com"),
        ("HTTPS://api.example.com", "https://api.example.com"),
        ("http://127.0.0.1:8790", "http://127.0.0.1:8790"),
        ("http://localhost/", "http://localhost"),
        ("  api.portalhq.io  ", "https://api.portalhq.io")
    ])
    func apiHostGetsTheRightScheme(apiHost: String, expected: String) throws {
        #expect(try make(apiHost: apiHost).apiBaseURL.absoluteString == expected)
    }

    @Test(arguments: [
        "", "   ", "http://api.portalhq.io", "http://localhost.evil.example", "ftp://api.portalhq.io",
        "api portalhq.io", "api.portalhq.io:notaport", "user@api.portalhq.io", "api.portalhq.io:99999",
        "https://", ":8790"
    ])
    func badApiHostIsRejected(apiHost: String) {
        #expect(throws: PortalAuthError.invalidArgument(name: "apiHost")) { try make(apiHost: apiHost) }
    }

    @Test func constructionDoesNoIO() throws {
        let transport = ScriptedTransport()
        let store = InMemoryPortalSessionStore()
        _ = try make(transport: transport, store: store)
        #expect(transport.requests.isEmpty)
        #expect(!store.touched)
    }
}
