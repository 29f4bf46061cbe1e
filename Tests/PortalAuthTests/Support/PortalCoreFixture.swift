import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

/// One PortalAuth wired to fakes.
struct PortalCoreFixture {
    static let environment = "local-dev"
    static let redirectUrl = "io.github.portalauth.signin://auth/callback"
    static let magicLink = MagicLinkConfig(fromEmail: "login@example.com", templateId: "tpl_1")

    let transport = ScriptedTransport()
    let store = InMemoryPortalSessionStore()
    let browser = FakeBrowser()
    /// The window sign-ins start from (set on `auth` unless `withAnchor` is false).
    let anchor = FakeAnchor()
    let logger = RecordingLogger()
    /// The instance's clock; tests move it forward to expire pending sign-ins.
    let clock = Box(Date(timeIntervalSince1970: 1_900_000_000))
    let pendingSignIns: any PortalPendingSignInStore
    let auth: PortalAuth

    init(
        redirectUrl: String = PortalCoreFixture.redirectUrl, magicLink: MagicLinkConfig? = PortalCoreFixture.magicLink,
        isAccountAbstracted: Bool? = nil, withBrowser: Bool = true,
        environment: String = PortalCoreFixture.environment,
        pendingSignIns: any PortalPendingSignInStore = InMemoryPortalPendingSignInStore(),
        loopback: (any LoopbackRedirectListening)? = nil, withAnchor: Bool = true
    ) throws {
        self.pendingSignIns = pendingSignIns
        let clock = self.clock
        auth = try PortalAuth(
            authEnvironmentId: environment, redirectUrl: redirectUrl, apiHost: "127.0.0.1:8790",
            magicLink: magicLink, isAccountAbstracted: isAccountAbstracted,
            transport: transport, sessionStore: store,
            browser: withBrowser ? browser : nil, loopback: loopback, logger: logger,
            pendingSignIns: pendingSignIns, now: { clock.current }
        )
        if withAnchor { auth.setAuthPresentationAnchor(anchor) }
    }

    /// The desktop handing the app's URLs to `auth`'s browser sign-in.
    var desktop: DesktopRedirects { DesktopRedirects(auth) }

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
