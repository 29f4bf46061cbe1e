import AuthBase
import Foundation

/// The fake Google, Apple, Discord and X: their codes, Apple's accounts, and what their pages share
/// (the chosen account, the cookie that remembers it). Which clients a page serves is the backend's
/// to say: Portal's callback (PortalOAuthCallback.swift) or Turnkey's apps (TurnkeyProviderFlow.swift).
final class IdentityProviders {
    static let rememberedAccountCookie = "idp_last_email"

    private let context: EmulatorContext
    private(set) var google: FakeGoogle
    private(set) var apple = FakeApple()
    /// Discord's and X's codes, spent by Turnkey's `oauth2_authenticate`.
    private(set) var oauth2Codes: OAuth2CodeStore

    init(context: EmulatorContext) {
        self.context = context
        google = FakeGoogle(clock: context.clock)
        oauth2Codes = OAuth2CodeStore(clock: context.clock)
    }

    /// Every code and Apple account forgotten.
    func reset() {
        google = FakeGoogle(clock: context.clock)
        apple = FakeApple()
        oauth2Codes = OAuth2CodeStore(clock: context.clock)
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
