import AuthTestSupport
import Foundation
import PortalAuth
import SignInAccounts

/// A `PortalAccountService` on a `PortalAuth` wired to the in-memory fakes.
@MainActor
struct PortalFixture {
    static let redirectUrl = "io.github.portalauth.signin://auth/callback"

    let transport = ScriptedTransport()
    let store = InMemoryPortalSessionStore()
    let browser = FakeBrowser()
    let anchor = FakeAnchor()
    let pendingSignIns: InMemoryPortalPendingSignInStore
    let clock = Box(Date(timeIntervalSince1970: 1_900_000_000))
    let auth: PortalAuth
    let service: PortalAccountService

    init(pendingSignIns: InMemoryPortalPendingSignInStore = InMemoryPortalPendingSignInStore()) throws {
        self.pendingSignIns = pendingSignIns
        let clock = self.clock
        auth = try PortalAuth(
            authEnvironmentId: "local-dev", redirectUrl: Self.redirectUrl, apiHost: "127.0.0.1:8790",
            magicLink: MagicLinkConfig(fromEmail: "login@example.com", templateId: "tpl_1"),
            transport: transport, sessionStore: store, browser: browser,
            pendingSignIns: pendingSignIns, now: { clock.current })
        service = PortalAccountService(core: .success(auth), anchor: anchor)
    }

    static func redirect(grant: String = Secrets.grant, loginType: String = "GOOGLE") -> String {
        "\(redirectUrl)?token=\(grant)&login_type=\(loginType)"
    }
}
