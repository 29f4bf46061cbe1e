import Synchronization

/// How far the last few callbacks got, by `state`, so a callback delivered twice picks up where the
/// first one stopped instead of spending a Discord or X code twice: after the code exchange it
/// continues from the OIDC token; once finished it replays the same result.
///
/// A few entries, not a history: only a re-delivery soon after matters, and the pending record in
/// the store is gone by then. Read and written only while `TurnkeyAuth`'s mutex is held; the lock
/// here keeps the compiler honest.
final class ReplayMemory: Sendable {
    static let capacity = 8

    enum Progress: Sendable {
        /// The provider's token is in hand (a code was spent for it); the rest is not done.
        case oidcToken(OAuthSuccess)
        case finished(TurnkeyRedirectResult)
    }

    private let entries = Mutex<[(state: String, progress: Progress)]>([])

    func progress(for state: String) -> Progress? {
        entries.withLock { entries in entries.last { $0.state.utf8.elementsEqual(state.utf8) }?.progress }
    }

    func remember(_ progress: Progress, for state: String) {
        entries.withLock { entries in
            entries.removeAll { $0.state.utf8.elementsEqual(state.utf8) }
            entries.append((state, progress))
            if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        }
    }

    /// A signed-out session must not come back through a re-delivered callback.
    func forget(sessionKey: String) {
        entries.withLock { entries in
            entries.removeAll { entry in
                if case .finished(.authenticated(let result)) = entry.progress { return result.session.sessionKey == sessionKey }
                return false
            }
        }
    }

    var isEmpty: Bool { entries.withLock { $0.isEmpty } }
}
