import Foundation

/// One `GET /oauth/urls` answer: a single-use state shared by the Google and Apple URLs.
final class PendingAuthorization {
    let environmentId: String
    /// The app's redirect URL, decoded; the callback sends the grant or the error here.
    let redirectUrl: String
    let isAccountAbstracted: Bool
    let expiresAt: Int
    var used = false

    init(environmentId: String, redirectUrl: String, isAccountAbstracted: Bool, expiresAt: Int) {
        self.environmentId = environmentId
        self.redirectUrl = redirectUrl
        self.isAccountAbstracted = isAccountAbstracted
        self.expiresAt = expiresAt
    }
}

final class OAuthStateStore {
    static let lifetimeSeconds = 15 * 60
    private var states: [String: PendingAuthorization] = [:]

    func create(environmentId: String, redirectUrl: String, isAccountAbstracted: Bool, now: Int) -> String {
        let state = Crypto.randomToken()
        states[state] = PendingAuthorization(environmentId: environmentId, redirectUrl: redirectUrl,
                                             isAccountAbstracted: isAccountAbstracted, expiresAt: now + Self.lifetimeSeconds)
        return state
    }

    /// Used states stay known so a second callback can still be sent back to the app with an error.
    func lookup(_ state: String) -> PendingAuthorization? { states[state] }

    /// Whether the state may still complete a sign-in (spends it either way).
    func consume(_ pending: PendingAuthorization, now: Int) -> Bool {
        defer { pending.used = true }
        return !pending.used && now < pending.expiresAt
    }
}
