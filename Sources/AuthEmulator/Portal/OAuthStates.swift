import Foundation

/// One `GET /oauth/urls` answer: a single-use state shared by the Google and Apple URLs.
struct PendingAuthorization: Sendable {
    let environmentId: String
    /// The app's redirect URL, decoded; the callback sends the grant or the error here.
    let redirectUrl: String
    let isAccountAbstracted: Bool
}

final class OAuthStateStore {
    static let lifetimeSeconds = 15 * 60
    /// Every state issued: a used one stays known so a second callback can still be sent back to
    /// the app with an error.
    private var issued: [String: PendingAuthorization] = [:]
    private let unused: ExpiringTakeOnceStore<PendingAuthorization>

    init(clock: EmulatorClock) { unused = ExpiringTakeOnceStore(clock: clock) }

    func create(environmentId: String, redirectUrl: String, isAccountAbstracted: Bool) -> String {
        let state = Crypto.randomToken()
        let pending = PendingAuthorization(
            environmentId: environmentId, redirectUrl: redirectUrl,
            isAccountAbstracted: isAccountAbstracted)
        issued[state] = pending
        unused.put(pending, for: state, lifetimeSeconds: Self.lifetimeSeconds)
        return state
    }

    func lookup(_ state: String) -> PendingAuthorization? { issued[state] }

    /// Not yet spent by a callback (expired or not).
    func isUnused(_ state: String) -> Bool { unused.holds(state) }

    /// Whether the state may still complete a sign-in (spends it either way).
    func consume(_ state: String) -> Bool { unused.take(state) != nil }
}
