import AuthTestSupport
import Foundation
import Testing

@testable import TurnkeyAuth

@Suite("Configuration: what a TurnkeyAuth may be built with", .timeLimit(.minutes(1)))
struct ConfigurationTests {
    private func make(_ change: (inout TurnkeyConfiguration) -> Void) throws -> TurnkeyAuth {
        var configuration = TurnkeyCoreFixture.configuration()
        change(&configuration)
        return try TurnkeyAuth(
            configuration: configuration, transport: ScriptedTransport(),
            stores: TurnkeyStores(
                sessions: InMemoryTurnkeySessionStore(), keys: InMemoryKeyStore(),
                pending: InMemoryTurnkeyPendingSignInStore()),
            crypto: FakeCrypto())
    }

    @Test func creatingOneSendsNothingAndTouchesNoStore() throws {
        let f = try TurnkeyCoreFixture()
        #expect(f.transport.requests.isEmpty)
        #expect(f.sessions.items.operations.isEmpty && f.keys.items.operations.isEmpty && f.pending.items.operations.isEmpty)
    }

    @Test(arguments: [
        ("https://authproxy.turnkey.com", true), ("http://127.0.0.1:8790/turnkey/auth-proxy", true),
        ("http://localhost:8790/turnkey/auth-proxy/", true), ("HTTPS://AuthProxy.Turnkey.com", true),
        ("http://authproxy.turnkey.com", false), ("ftp://authproxy.turnkey.com", false), ("", false), ("  ", false),
        ("authproxy.turnkey.com", false), ("https://authproxy.turnkey.com?x=1", false), ("https://a@authproxy.turnkey.com", false),
        ("https://authproxy.turnkey.com#top", false), ("http://127.0.0.2", false)
    ])
    func serviceURLsMustBeHTTPSOrLoopback(url: String, accepted: Bool) {
        let result = TurnkeyConfiguration.serviceURL(url)
        if case .success = result { #expect(accepted) } else { #expect(!accepted) }
    }

    @Test func serviceURLSaysWhatIsWrong() {
        #expect(TurnkeyConfiguration.serviceURL(" ") == .failure(.blank))
        #expect(TurnkeyConfiguration.serviceURL("http://api.turnkey.com") == .failure(.notHTTPS))
        #expect(TurnkeyConfiguration.serviceURL("not a url at all") == .failure(.malformed))
        #expect(TurnkeyConfiguration.serviceURL("https://api.turnkey.com///") == .success(URL(string: "https://api.turnkey.com")!))
    }

    @Test func eachBadFieldIsNamed() {
        #expect(throws: TurnkeyAuthError.invalidConfiguration(field: "authProxyUrl", problem: "notHTTPS")) {
            try make { $0.authProxyUrl = "http://authproxy.example.com" }
        }
        #expect(throws: TurnkeyAuthError.invalidConfiguration(field: "authProxyConfigId", problem: "blank")) {
            try make { $0.authProxyConfigId = " " }
        }
        #expect(throws: TurnkeyAuthError.invalidConfiguration(field: "apiUrl", problem: "malformed")) {
            try make { $0.apiUrl = "api" }
        }
        #expect(throws: TurnkeyAuthError.invalidConfiguration(field: "appScheme", problem: "notACustomScheme")) {
            try make { $0.appScheme = "https" }
        }
        #expect(throws: TurnkeyAuthError.invalidConfiguration(field: "appScheme", problem: "notACustomScheme")) {
            try make { $0.appScheme = "io.github/portalauth" }
        }
        #expect(throws: TurnkeyAuthError.invalidConfiguration(field: "redirectUri", problem: "notHTTPS")) {
            try make { $0.redirectUri = "http://redirect.example.com" }
        }
        #expect(throws: TurnkeyAuthError.invalidConfiguration(field: "sessionExpirationSeconds", problem: "notAPositiveNumber")) {
            try make { $0.sessionExpirationSeconds = "-5" }
        }
        #expect(throws: TurnkeyAuthError.invalidConfiguration(field: "oauthOriginUrl", problem: "notHTTPS")) {
            try make { $0.oauthOriginUrl = "http://oauth-origin.example.com" }
        }
        #expect(throws: TurnkeyAuthError.invalidConfiguration(field: "defaultSessionKey", problem: "blank")) {
            try make { $0.defaultSessionKey = "" }
        }
        #expect(throws: TurnkeyAuthError.invalidConfiguration(field: "authProxyConfigId", problem: "malformed")) {
            try make { $0.authProxyConfigId = "local-dev\r\nX-Injected: 1" }
        }
        #expect(throws: TurnkeyAuthError.invalidConfiguration(field: "organizationId", problem: "malformed")) {
            try make { $0.organizationId = "org 1" }
        }
        #expect(throws: TurnkeyAuthError.invalidConfiguration(field: "defaultSessionKey", problem: "malformed")) {
            try make { $0.defaultSessionKey = "my session" }
        }
    }

    @Test func identifiersHaveNoSpacesOrControlCharacters() {
        #expect(TurnkeyConfiguration.isValidIdentifier("local-dev"))
        #expect(TurnkeyConfiguration.isValidIdentifier("5f3b2c1e-0000-4a4a-9b9b-123456789abc"))
        #expect(!TurnkeyConfiguration.isValidIdentifier(""))
        #expect(!TurnkeyConfiguration.isValidIdentifier("a b"))
        #expect(!TurnkeyConfiguration.isValidIdentifier("a\u{0}b"))
        #expect(!TurnkeyConfiguration.isValidIdentifier("a\u{202E}b"))
        #expect(!TurnkeyConfiguration.isValidIdentifier("a\u{00A0}b"))
    }

    @Test func appSchemesFollowRFC3986AndAreNeverWebSchemes() {
        #expect(TurnkeyConfiguration.isAppScheme("io.github.portalauth.signin"))
        #expect(TurnkeyConfiguration.isAppScheme("my-app+dev"))
        #expect(!TurnkeyConfiguration.isAppScheme("http"))
        #expect(!TurnkeyConfiguration.isAppScheme("HTTPS"))
        #expect(!TurnkeyConfiguration.isAppScheme("1app"))
        #expect(!TurnkeyConfiguration.isAppScheme(""))
        #expect(!TurnkeyConfiguration.isAppScheme("app://"))
    }

    @Test func theDefaultsAreTurnkeysOwnPages() {
        let configuration = TurnkeyConfiguration(
            authProxyUrl: "https://authproxy.turnkey.com", authProxyConfigId: "c",
            apiUrl: "https://api.turnkey.com")
        #expect(configuration.oauthOriginUrl == "https://oauth-origin.turnkey.com")
        #expect(configuration.authorizeUrl(for: .discord) == "https://discord.com/oauth2/authorize")
        #expect(configuration.authorizeUrl(for: .x) == "https://x.com/i/oauth2/authorize")
        #expect(configuration.appScheme == "io.github.portalauth.signin")
        #expect(configuration.defaultSessionKey == "default")
    }
}
