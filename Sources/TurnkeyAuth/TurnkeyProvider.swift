/// The social logins Turnkey's SDK has helpers for. Google and Apple are OIDC with the nonce bound
/// to a fresh key; Discord and X are OAuth 2.0 with PKCE, their code exchanged by the Auth Proxy.
public enum TurnkeyProvider: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    case google
    case apple
    case discord
    case x

    /// The name a person knows the provider by (a proper noun, the same in every language).
    public var displayName: String {
        switch self {
        case .google: return "Google"
        case .apple: return "Apple"
        case .discord: return "Discord"
        case .x: return "X"
        }
    }

    /// The `providerName` the SDK's handlers give `signup_v2` and `onOAuthSuccess` (X is `twitter`).
    public var providerName: String {
        self == .x ? "twitter" : rawValue
    }

    /// The provider a `providerName` stands for (`twitter` or `x` is X), or nil for any other name.
    public init?(providerName: String) {
        guard let provider = providerName == "twitter" ? .x : TurnkeyProvider(rawValue: providerName) else { return nil }
        self = provider
    }

    /// Discord and X: the app gets a code and a PKCE verifier proves it started the sign-in.
    public var usesPKCE: Bool {
        self == .discord || self == .x
    }

    /// The `provider` of `oauth2_authenticate`, for the PKCE providers.
    var oauth2Provider: TurnkeyWire.OAuth2Provider? {
        switch self {
        case .discord: return .discord
        case .x: return .x
        case .google, .apple: return nil
        }
    }

    /// The scope the SDK asks the PKCE providers for.
    var scope: String? {
        switch self {
        case .discord: return "identify email"
        case .x: return "tweet.read users.read"
        case .google, .apple: return nil
        }
    }
}
