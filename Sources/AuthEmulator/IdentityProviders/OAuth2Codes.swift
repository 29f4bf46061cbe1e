import AuthBase
import Foundation

/// An authorization code of a fake PKCE provider (Discord, X): what it was issued for (RFC 6749 §4.1.2,
/// RFC 7636), so that `oauth2_authenticate` can check the client, the redirect URI and the verifier.
struct OAuth2Authorization: Sendable {
    let provider: IdentityProvider
    let clientId: String
    let redirectUri: String
    let codeChallenge: String
    /// The account chosen on the page.
    let email: String
}

/// Codes live 10 minutes and are spent by their first presentation, whatever its outcome (a wrong
/// verifier cannot be retried against the same code). A code shown to the other provider stays usable.
final class OAuth2CodeStore {
    static let lifetimeSeconds = 600
    private let codes: ExpiringTakeOnceStore<OAuth2Authorization>

    init(clock: EmulatorClock) { codes = ExpiringTakeOnceStore(clock: clock) }

    func issue(provider: IdentityProvider, clientId: String, redirectUri: String, codeChallenge: String, email: String) -> String {
        let code = "\(provider.rawValue)c_" + Crypto.randomToken()
        codes.put(
            OAuth2Authorization(
                provider: provider, clientId: clientId, redirectUri: redirectUri,
                codeChallenge: codeChallenge, email: email),
            for: code, lifetimeSeconds: Self.lifetimeSeconds)
        return code
    }

    /// Spends the code and returns what it was issued for; nil when unknown, spent, expired or another provider's.
    func redeem(_ code: String, provider: IdentityProvider) -> OAuth2Authorization? {
        codes.take(code) { $0.provider == provider }
    }
}

/// Stable account IDs of the fake providers, derived from the account's email so the same person is
/// the same `sub` across resets and restarts (Apple's come from `FakeApple`).
enum ProviderAccounts {
    /// As many digits as the provider's IDs have (`FakePage.accountIdDigits`).
    static func numericId(_ provider: IdentityProvider, email: String) -> String {
        let length = provider.fakePage.accountIdDigits
        let digest = Crypto.sha256Hex("\(provider.rawValue)-account|\(Emails.normalize(email))")
        let digits = digest.unicodeScalars.map { String(Int($0.value) % 10) }.joined()
        return "1" + digits.prefix(length - 1)
    }
}
