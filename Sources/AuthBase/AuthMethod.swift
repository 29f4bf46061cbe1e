/// A sign-in method a Portal auth environment can allow: email links, or a provider whose table
/// entry Portal offers (Portal's hosted OAuth). Its raw value is Portal's name for it
/// (`allowedAuthMethods`, `login_type`); a name Portal did not define is nil.
public struct AuthMethod: RawRepresentable, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// Portal's name for the method: `EMAIL_MAGIC_LINK`, `GOOGLE`, `APPLE`.
    public let rawValue: String
    /// The provider the method signs in with; nil for email links.
    public let provider: SignInProvider?

    /// Sign-in by a link Portal emails (`sendMagicLink`).
    public static let emailMagicLink = AuthMethod(name: "EMAIL_MAGIC_LINK", provider: nil)
    /// Sign in with Google, through Portal's hosted OAuth.
    public static let google = AuthMethod(offered: .google)
    /// Sign in with Apple, through Portal's hosted OAuth.
    public static let apple = AuthMethod(offered: .apple)

    /// Email links, then the providers Portal offers, in the table's order.
    public static var allCases: [AuthMethod] { [.emailMagicLink] + providers }

    /// The methods that sign in with a provider.
    public static var providers: [AuthMethod] { SignInProvider.allCases.compactMap(AuthMethod.init) }

    /// The method named `rawValue` exactly (Portal's names are upper case), or nil.
    public init?(rawValue: String) {
        guard let method = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = method
    }

    /// The method of `provider`, or nil when Portal does not offer it.
    public init?(_ provider: SignInProvider) {
        guard let offer = provider.offer(on: .portal) else { return nil }
        self.init(name: offer.name, provider: provider)
    }

    /// The name a person knows the method by (a proper noun, the same in every language).
    public var displayName: String { provider?.displayName ?? "Email link" }

    /// As the enum it replaced printed its cases: `emailMagicLink`, `google`.
    public var description: String { provider?.rawValue ?? "emailMagicLink" }

    private init(name: String, provider: SignInProvider?) {
        rawValue = name
        self.provider = provider
    }

    private init(offered provider: SignInProvider) {
        guard let method = AuthMethod(provider) else { preconditionFailure("Portal does not offer \(provider)") }
        self = method
    }
}
