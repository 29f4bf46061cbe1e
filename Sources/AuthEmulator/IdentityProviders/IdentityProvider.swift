import AuthBase

/// The fake identity providers under `/idp/<rawValue>/`: the providers of the table. Google and
/// Apple serve Portal's flow and Turnkey's (OIDC `id_token`s); Discord and X serve Turnkey's
/// OAuth 2.0 + PKCE flow only.
typealias IdentityProvider = SignInProvider

extension SignInProvider {
    /// Google and Apple hand out an `id_token` themselves; Discord and X hand out a code that the
    /// Auth Proxy turns into a token it mints (`oauth2_authenticate`).
    var issuesIdTokens: Bool { offer(on: .turnkey)?.flow == .oidcWithNonce }

    /// Portal's name for the provider (Google and Apple only).
    var portalAuthMethod: AuthMethod? { AuthMethod(self) }

    init?(oauth2Provider: TurnkeyWire.OAuth2Provider) {
        self.init(authProxyProvider: oauth2Provider)
    }
}
