import AuthBase
import Foundation

/// The one-time grant a redirect hands to the app (`pg_…`), exchanged for a session or a user JWT.
struct Grant {
    enum Kind: Equatable {
        case oauth(AuthMethod)   // .google or .apple
        case magicLink

        /// The sign-in method that issued it.
        var method: AuthMethod {
            switch self {
            case .oauth(let provider): return provider
            case .magicLink: return .emailMagicLink
            }
        }
    }
    let environmentId: String
    let endUserId: String
    let kind: Kind
    let isAccountAbstracted: Bool
    let expiresAt: Int
}

/// Grants live 15 minutes, are bound to their environment and to the endpoint of their kind,
/// and are spent by their first exchange whatever happens to the response.
final class GrantStore {
    static let lifetimeSeconds = 15 * 60
    private var live: [String: Grant] = [:]

    func issue(environmentId: String, endUserId: String, kind: Grant.Kind, isAccountAbstracted: Bool, now: Int) -> String {
        let token = "pg_" + Crypto.randomToken()
        live[token] = Grant(environmentId: environmentId, endUserId: endUserId, kind: kind,
                            isAccountAbstracted: isAccountAbstracted, expiresAt: now + Self.lifetimeSeconds)
        return token
    }

    /// Spends the grant and returns it, or nil when it is unknown, spent, expired, foreign or of another kind.
    /// A grant presented to the wrong environment or endpoint stays usable where it belongs.
    func redeem(_ token: String, environmentId: String, accepts: (Grant.Kind) -> Bool, now: Int) -> Grant? {
        guard let grant = live[token], grant.environmentId == environmentId, accepts(grant.kind) else { return nil }
        live[token] = nil
        return now < grant.expiresAt ? grant : nil
    }
}
