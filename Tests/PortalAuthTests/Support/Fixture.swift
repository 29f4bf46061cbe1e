import Foundation
import Testing
import AuthTestSupport
@testable import PortalAuth

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
    /// The instance's clock; tests move it forward to expire pending sign-ins.
    let clock = Box(Date(timeIntervalSince1970: 1_900_000_000))
    let pendingSignIns: any PendingSignInStore
    let auth: PortalAuth

    init(redirectUrl: String = Fixture.redirectUrl, magicLink: MagicLinkConfig? = Fixture.magicLink,
         isAccountAbstracted: Bool? = nil, withBrowser: Bool = true, withRedirects: Bool = true,
         environment: String = Fixture.environment,
         pendingSignIns: any PendingSignInStore = InMemoryPendingSignInStore(),
         loopback: (any LoopbackRedirectListening)? = nil) throws {
        self.pendingSignIns = pendingSignIns
        let clock = self.clock
        auth = try PortalAuth(
            authEnvironmentId: environment, redirectUrl: redirectUrl, apiHost: "127.0.0.1:8790",
            magicLink: magicLink, isAccountAbstracted: isAccountAbstracted,
            transport: transport, sessionStore: store,
            browser: withBrowser ? browser : nil, redirects: withRedirects ? inbox : nil, loopback: loopback, logger: logger,
            pendingSignIns: pendingSignIns, now: { clock.current }
        )
    }

    /// Moves the instance's clock forward.
    func advance(seconds: TimeInterval) {
        clock.withLock { $0 = $0.addingTimeInterval(seconds) }
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
