import Foundation
import Testing
@testable import PortalAuth

/// Secret-shaped values like the emulator mints. Tests compare them, never print them.
enum Secrets {
    static let grant = "pg_Q7xv2LkP9mWz4RtY8nBc3Hd"
    static let otherGrant = "pg_Zz81KkLm29PqRs47TuVw06X"
    static let sessionToken = "pst_Hh3Jk5Lm7Np9Qr2St4Vw6Xy"
    static let otherSessionToken = "pst_Aa1Bb2Cc3Dd4Ee5Ff6Gg7Hh"
    static let userJwt = jwt(claims: ["endUserId": "eu_totp", "authEnvironmentId": "local-dev", "iat": 1, "exp": 601])
    static let otherUserJwt = jwt(claims: ["endUserId": "eu_totp", "authEnvironmentId": "local-dev", "iat": 2, "exp": 602])

    /// A JWT-shaped string: base64url (no padding) header and claims, and a fake signature.
    static func jwt(claims: [String: Any], padded: Bool = false, standardAlphabet: Bool = false) -> String {
        let header = segment(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8), padded: padded, standard: standardAlphabet)
        let body = try! JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        return header + "." + segment(body, padded: padded, standard: standardAlphabet) + ".c2lnbmF0dXJl"
    }

    static func segment(_ data: Data, padded: Bool = false, standard: Bool = false) -> String {
        var text = data.base64EncodedString()
        if !standard { text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_") }
        if !padded { text = text.replacingOccurrences(of: "=", with: "") }
        return text
    }

    /// Every secret a test may have handed the core.
    static let all = [grant, otherGrant, sessionToken, otherSessionToken, userJwt, otherUserJwt]
}

/// JSON bodies Portal answers with.
enum Wire {
    static func session(token: String = Secrets.sessionToken, endUserId: String? = "eu_1",
                        clientId: String = "cl_1", accountAbstracted: Bool = false) -> String {
        let user = endUserId.map { #""endUserId":"\#($0)","# } ?? ""
        return #"{"data":{\#(user)"clientId":"\#(clientId)","clientSessionToken":"\#(token)","isAccountAbstracted":\#(accountAbstracted)}}"#
    }

    static func totpStep(userJwt: String = Secrets.userJwt, link: Bool = true) -> String {
        let totpLink = link ? #","totpLink":"otpauth://totp/Portal:totp%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Portal&algorithm=SHA1&digits=6&period=30""# : ""
        return #"{"data":{"endUserId":"eu_totp","userJwt":"\#(userJwt)"\#(totpLink)}}"#
    }

    static func totpAccepted(token: String = Secrets.sessionToken) -> String {
        #"{"data":{"clientId":"cl_totp","clientSessionToken":"\#(token)","isAccountAbstracted":false}}"#
    }

    static let authorizeUrls = #"{"data":{"google":"http://127.0.0.1:8790/idp/google/authorize?client_id=g&redirect_uri=cb&state=s1&response_type=code&scope=openid%20email","apple":"http://127.0.0.1:8790/idp/apple/authorize?client_id=a&state=s1&response_mode=form_post&scope=name%20email"}}"#
    static let googleAuthorize = "http://127.0.0.1:8790/idp/google/authorize?client_id=g&redirect_uri=cb&state=s1&response_type=code&scope=openid%20email"
    static let appleAuthorize = "http://127.0.0.1:8790/idp/apple/authorize?client_id=a&state=s1&response_mode=form_post&scope=name%20email"
    static let error401 = #"{"error":"Unauthorized"}"#
}

/// One PortalAuth wired to fakes.
struct Fixture {
    static let environment = "local-dev"
    static let redirectUrl = "io.github.portalauth.signin://auth/callback"
    static let magicLink = MagicLinkConfig(fromEmail: "login@example.com", templateId: "tpl_1")

    let transport = ScriptedTransport()
    let store = InMemorySessionStore()
    let browser = FakeBrowser()
    let inbox = RedirectInbox()
    let logger = RecordingLogger()
    let auth: PortalAuth

    init(redirectUrl: String = Fixture.redirectUrl, magicLink: MagicLinkConfig? = Fixture.magicLink,
         isAccountAbstracted: Bool? = nil, withBrowser: Bool = true, withRedirects: Bool = true) throws {
        auth = try PortalAuth(
            authEnvironmentId: Self.environment, redirectUrl: redirectUrl, apiHost: "127.0.0.1:8790",
            magicLink: magicLink, isAccountAbstracted: isAccountAbstracted,
            transport: transport, sessionStore: store,
            browser: withBrowser ? browser : nil, redirects: withRedirects ? inbox : nil, logger: logger
        )
    }

    /// A redirect as Portal sends it.
    static func redirect(grant: String = Secrets.grant, loginType: String = "GOOGLE") -> String {
        "\(redirectUrl)?token=\(grant)&login_type=\(loginType)"
    }

    static func magicLinkRedirect(grant: String = Secrets.grant) -> String {
        "\(redirectUrl)?token=\(grant)&authMethod=EMAIL_MAGIC_LINK"
    }

    /// The stored secret for `token`/`endUserId`, byte for byte as the core must write it.
    static func storedSecret(token: String = Secrets.sessionToken, endUserId: String = "eu_1") -> String {
        #"{"clientSessionToken":"\#(token)","endUserId":"\#(endUserId)"}"#
    }
}

/// Compares values that may be secrets without printing them when they differ
/// (a failed `#expect(a == b)` prints both sides).
func expectSameSecret(_ actual: String?, _ expected: String?, _ what: String,
                      sourceLocation: SourceLocation = #_sourceLocation) {
    let same = actual == expected
    #expect(same, "\(what) differs", sourceLocation: sourceLocation)
}

/// Fails, without printing `text`, when it holds a grant, session token or JWT.
func expectNoSecret(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let leaked = containsAnySecret(text)
    #expect(!leaked, "\(what) contains a secret", sourceLocation: sourceLocation)
}

/// Whether `text` contains any value from `Secrets.all`.
func containsAnySecret(_ text: String) -> Bool {
    Secrets.all.contains { text.contains($0) } || SecretRedaction.containsSecret(text)
}

extension AuthResult {
    var authenticated: AuthenticatedResult? {
        if case .authenticated(let result) = self { return result }
        return nil
    }

    var totpStep: TotpRequiredResult? {
        if case .totpRequired(let step) = self { return step }
        return nil
    }
}

/// Waits (bounded) until `condition` holds, for state that another task changes.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<2000 {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return condition()
}
