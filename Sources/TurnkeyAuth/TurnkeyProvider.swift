/// A provider Turnkey offers: a `SignInProvider` whose table entry has a Turnkey flow (Google and
/// Apple are OIDC with the nonce bound to a fresh key; Discord and X are OAuth 2.0 with PKCE, their
/// code exchanged by the Auth Proxy). Its raw value is the provider's identifier; a word that names
/// no provider Turnkey offers is nil.
public struct TurnkeyProvider: RawRepresentable, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// The provider in the shared table (`AuthBase`).
    public let signInProvider: SignInProvider

    /// Google: OpenID Connect, the nonce bound to a fresh key.
    public static let google = TurnkeyProvider(offered: .google)
    /// Apple: OpenID Connect, the nonce bound to a fresh key.
    public static let apple = TurnkeyProvider(offered: .apple)
    /// Discord: OAuth 2.0 with PKCE; the Auth Proxy exchanges the code.
    public static let discord = TurnkeyProvider(offered: .discord)
    /// X (Twitter): OAuth 2.0 with PKCE; the Auth Proxy exchanges the code.
    public static let x = TurnkeyProvider(offered: .x)

    /// The providers Turnkey offers, in the table's order.
    public static var allCases: [TurnkeyProvider] { SignInProvider.allCases.compactMap(TurnkeyProvider.init) }

    /// `provider`, or nil when Turnkey does not offer it.
    public init?(_ provider: SignInProvider) {
        guard provider.offer(on: .turnkey) != nil else { return nil }
        signInProvider = provider
    }

    /// The provider whose identifier is `rawValue` (`google`, `apple`, `discord`, `x`), or nil.
    public init?(rawValue: String) {
        guard let provider = SignInProvider(rawValue: rawValue) else { return nil }
        self.init(provider)
    }

    /// The provider a `providerName` stands for (`twitter` or `x` is X), or nil for any other name.
    public init?(providerName: String) {
        guard let provider = Self.allCases.first(where: { $0.providerName == providerName || $0.rawValue == providerName }) else {
            return nil
        }
        self = provider
    }

    /// The provider's identifier: `google`, `apple`, `discord` or `x`.
    public var rawValue: String { signInProvider.rawValue }

    /// The identifier, as `rawValue`.
    public var description: String { rawValue }

    /// The name a person knows the provider by (a proper noun, the same in every language).
    public var displayName: String { signInProvider.displayName }

    /// The `providerName` the SDK's handlers give `signup_v2` and `onOAuthSuccess` (X is `twitter`).
    public var providerName: String { offer.name }

    /// Discord and X: the app gets a code and a PKCE verifier proves it started the sign-in.
    public var usesPKCE: Bool { oauth2Provider != nil }

    /// The `provider` of `oauth2_authenticate`, for the PKCE providers.
    var oauth2Provider: TurnkeyWire.OAuth2Provider? { signInProvider.authProxyProvider }

    /// The scope the SDK asks the PKCE providers for.
    var scope: String? {
        guard case .oauth2PKCE(_, let scope, _) = offer.flow else { return nil }
        return scope
    }

    /// The PKCE providers' own authorize endpoint, unless the configuration names another.
    public var defaultAuthorizeUrl: String? {
        guard case .oauth2PKCE(let authorizeUrl, _, _) = offer.flow else { return nil }
        return authorizeUrl
    }

    private var offer: ProviderOffer {
        // Only providers with a Turnkey offer are made (`init?(_:)`).
        signInProvider.offer(on: .turnkey)!
    }

    private init(offered provider: SignInProvider) {
        guard let turnkey = TurnkeyProvider(provider) else { preconditionFailure("Turnkey does not offer \(provider)") }
        self = turnkey
    }
}
