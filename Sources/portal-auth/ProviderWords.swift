import PortalAuth
import PortalAuthGNOME
import TurnkeyAuth

/// The providers as the help and usage lines name them, read from the provider table, so a new
/// provider needs no words here.
enum ProviderWords {
    /// The identifiers Portal's commands take: `google`, `apple`.
    static var portal: [String] { AuthMethod.providers.compactMap { $0.provider?.rawValue } }
    /// The identifiers Turnkey's commands take: `google`, `apple`, `discord`, `x`.
    static var turnkey: [String] { TurnkeyProvider.allCases.map(\.rawValue) }

    /// `google, apple, discord or x`.
    static func sentence(_ words: [String], _ conjunction: String = "or") -> String {
        SignInProvider.englishList(words, conjunction)
    }

    /// A command's usage padded to the help's column of descriptions.
    static func column(_ usage: String) -> String {
        usage + String(repeating: " ", count: max(1, 29 - usage.count))
    }
}
