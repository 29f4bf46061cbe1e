import AuthBase
import Foundation

/// The fake Google, Apple, Discord and X: the apps registered with them, their pages, their codes
/// and Apple's accounts. Pages for Portal's environments are in PortalClientPages.swift, for
/// Turnkey's apps in TurnkeyAppPages.swift.
final class IdentityProviders {
    static let rememberedAccountCookie = "idp_last_email"

    let context: EmulatorContext
    /// Portal's environments as registered apps: client `emulator-<provider>-<id>`, redirect URI
    /// the environment's callback, and its test accounts on the chooser.
    private let portalEnvironments: [EnvironmentConfig]
    /// Turnkey's apps: their client IDs, redirect URIs and test accounts.
    let turnkeyApps: TurnkeyConfig
    private(set) var google: FakeGoogle
    private(set) var apple = FakeApple()
    /// Discord's and X's codes, spent by Turnkey's `oauth2_authenticate`.
    private(set) var oauth2Codes: OAuth2CodeStore
    /// The generic OIDC issuer's codes (GenericOIDCIssuer.swift).
    private(set) var oidcCodes: ExpiringTakeOnceStore<GenericOIDCAuthorization>

    init(context: EmulatorContext, portalEnvironments: [EnvironmentConfig], turnkeyApps: TurnkeyConfig) {
        self.context = context
        self.portalEnvironments = portalEnvironments
        self.turnkeyApps = turnkeyApps
        google = FakeGoogle(clock: context.clock)
        oauth2Codes = OAuth2CodeStore(clock: context.clock)
        oidcCodes = ExpiringTakeOnceStore(clock: context.clock)
    }

    /// Every code and Apple account forgotten.
    func reset() {
        google = FakeGoogle(clock: context.clock)
        apple = FakeApple()
        oauth2Codes = OAuth2CodeStore(clock: context.clock)
        oidcCodes = ExpiringTakeOnceStore(clock: context.clock)
    }

    var now: Int { context.now }
    var baseURL: String { context.baseURL }

    /// `GET` and `POST /idp/<identifier>/authorize`. A provider Portal offers serves both backends,
    /// told apart by the client ID; a form_post page (Apple) posts to Portal's callback, never here.
    func pageHandlers(_ provider: IdentityProvider) -> [String: (EmulatorRequest) throws -> EmulatorResponse] {
        guard provider.portalAuthMethod != nil else {
            return ["GET": { self.showTurnkeyAppPage(provider, $0) }, "POST": { self.submitTurnkeyAppPage(provider, $0) }]
        }
        return [
            "GET": { self.isTurnkeyClient(provider, $0.query) ? self.showTurnkeyAppPage(provider, $0) : self.showPortalPage(provider, $0) },
            "POST": {
                self.isTurnkeyClient(provider, $0.form) || provider.fakePage.answersPortalByFormPost
                    ? self.submitTurnkeyAppPage(provider, $0) : self.submitPortalGooglePage($0)
            }
        ]
    }

    /// The Portal environment whose callback URL this is, if it is one of ours.
    func portalEnvironment(forCallback url: String) -> EnvironmentConfig? {
        portalEnvironments.first { PortalBackend.callbackURL(baseURL: baseURL, environmentId: $0.id) == url }
    }

    /// The typed address wins over a picked one; nil when neither is a plausible address.
    func chosenEmail(_ form: [String: String]) -> String? {
        let typed = Emails.normalize(form["custom_email"] ?? "")
        let email = typed.isEmpty ? Emails.normalize(form["email"] ?? "") : typed
        return Emails.isPlausible(email) ? email : nil
    }

    /// The account the browser last chose on a provider's page, if it is an address.
    func rememberedAccount(_ request: EmulatorRequest) -> String? {
        request.cookie(Self.rememberedAccountCookie).map(Emails.normalize).flatMap { Emails.isPlausible($0) ? $0 : nil }
    }

    func rememberCookie(_ email: String, provider: IdentityProvider) -> String {
        "\(Self.rememberedAccountCookie)=\(JavaURLEncoder.encode(email)); Path=/idp/\(provider.rawValue); HttpOnly; SameSite=Lax; Max-Age=2592000"
    }
}
