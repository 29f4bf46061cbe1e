import AuthBase

/// The fake identity providers under `/idp/<rawValue>/`. Google and Apple serve Portal's flow and
/// Turnkey's (OIDC `id_token`s); Discord and X serve Turnkey's OAuth 2.0 + PKCE flow only.
enum IdentityProvider: String, CaseIterable {
    case google, apple, discord, x

    var displayName: String {
        switch self {
        case .google: "Google"
        case .apple: "Apple"
        case .discord: "Discord"
        case .x: "X"
        }
    }

    /// Google and Apple hand out an `id_token` themselves; Discord and X hand out a code that the
    /// Auth Proxy turns into a token it mints (`oauth2_authenticate`).
    var issuesIdTokens: Bool { self == .google || self == .apple }

    /// Portal's name for the provider (Google and Apple only).
    var portalAuthMethod: AuthMethod? {
        switch self {
        case .google: .google
        case .apple: .apple
        case .discord, .x: nil
        }
    }

    /// The provider `oauth2_authenticate` names (Discord and X only).
    var oauth2Provider: TurnkeyWire.OAuth2Provider? {
        switch self {
        case .discord: .discord
        case .x: .x
        case .google, .apple: nil
        }
    }

    init?(oauth2Provider: TurnkeyWire.OAuth2Provider) {
        switch oauth2Provider {
        case .discord: self = .discord
        case .x: self = .x
        }
    }
}
