import AuthBase
import Foundation

/// The one-time grant a redirect hands to the app (`pg_…`), exchanged for a session or a user JWT.
struct Grant: Sendable {
    enum Kind: Equatable, Sendable {
        case oauth(AuthMethod) // .google or .apple
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
}

/// Grants live 15 minutes, are bound to their environment and to the endpoint of their kind,
/// and are spent by their first exchange whatever happens to the response.
final class GrantStore {
    static let lifetimeSeconds = 15 * 60
    private let live: ExpiringTakeOnceStore<Grant>

    init(clock: EmulatorClock) { live = ExpiringTakeOnceStore(clock: clock) }

    func issue(environmentId: String, endUserId: String, kind: Grant.Kind, isAccountAbstracted: Bool) -> String {
        let token = "pg_" + Crypto.randomToken()
        live.put(
            Grant(environmentId: environmentId, endUserId: endUserId, kind: kind, isAccountAbstracted: isAccountAbstracted),
            for: token, lifetimeSeconds: Self.lifetimeSeconds)
        return token
    }

    /// Spends the grant and returns it, or nil when it is unknown, spent, expired, foreign or of another kind.
    /// A grant presented to the wrong environment or endpoint stays usable where it belongs.
    func redeem(_ token: String, environmentId: String, accepts: (Grant.Kind) -> Bool) -> Grant? {
        live.take(token) { $0.environmentId == environmentId && accepts($0.kind) }
    }
}
