import FoundationEssentials
import Synchronization

/// A signed-in session: the client session token in memory, and the end user it belongs to. Pass it
/// to `Portal(credentials:)`.
///
/// `invalidate()` ends it for good: `getToken()` throws from then on, and when the session came from
/// a `PortalAuth` whose store still holds it, the stored copy is deleted, so `restoreSession()` does
/// not hand it back. The end user stays readable for sign-out UI. `description` never shows the token.
public final class PortalSession: Sendable, CustomStringConvertible {
    /// The Portal end user the session belongs to.
    public let endUserId: String
    /// Where the session was made, when a `PortalAuth` made it: `Portal(credentials:)` talks to the same API.
    let origin: Origin?
    private let state: Mutex<State>

    struct Origin: Sendable, Equatable {
        let apiBaseURL: URL
        let authEnvironmentId: String
    }

    private struct State {
        var token: String?
        /// Run once, by the `invalidate()` that ends the session.
        var onInvalidate: [@Sendable () -> Void] = []
    }

    /// A session from elsewhere (for example one your own backend handed over). It does not know its
    /// API host: give `Portal` the host and environment yourself.
    public convenience init(clientSessionToken: String, endUserId: String) {
        self.init(clientSessionToken: clientSessionToken, endUserId: endUserId, origin: nil)
    }

    init(clientSessionToken: String, endUserId: String, origin: Origin?) {
        self.state = Mutex(State(token: clientSessionToken))
        self.endUserId = endUserId
        self.origin = origin
    }

    /// The client session token (`Authorization: Bearer …` for Portal's API), or
    /// `PortalCredentialError.sessionInvalidated` after `invalidate()`.
    public func getToken() throws -> String {
        guard let token = state.withLock({ $0.token }) else { throw PortalCredentialError.sessionInvalidated }
        return token
    }

    /// Ends this session: the token is dropped, each `Portal` holding it calls its
    /// `onSessionInvalidated` handlers, and the stored copy is deleted if the store still holds this
    /// session (not a newer one). Idempotent.
    public func invalidate() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            guard state.token != nil else { return [] }
            state.token = nil
            defer { state.onInvalidate = [] }
            return state.onInvalidate
        }
        for action in actions { action() }
    }

    /// True once `invalidate()` was called.
    public var isInvalidated: Bool {
        state.withLock { $0.token == nil }
    }

    /// Runs `action` once when the session is invalidated: at once (on this thread) when it already is.
    func whenInvalidated(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard state.token != nil else { return true }
            state.onInvalidate.append(action)
            return false
        }
        if runNow { action() }
    }

    /// The end user and whether the session is invalidated; the token is shown as `[redacted]`.
    public var description: String {
        "PortalSession(endUserId: \(endUserId), token: \(SecretRedaction.placeholder)\(isInvalidated ? ", invalidated" : ""))"
    }
}
