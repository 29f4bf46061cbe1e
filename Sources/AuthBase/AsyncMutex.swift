import Synchronization

/// A first-in, first-out lock for async code that ignores cancellation while waiting.
///
/// Grant exchanges, TOTP verification and store writes run under it one at a time, in the
/// order they arrived, so two deliveries of one redirect collapse into one exchange and a
/// sign-out cannot land between an exchange and its save. A cancelled waiter keeps its place:
/// giving up halfway would let a later operation overtake one that already started.
package final class AsyncMutex: Sendable {
    private struct State {
        var isLocked = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    package init() {}

    package func lock() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = state.withLock { state -> Bool in
                if state.isLocked {
                    state.waiters.append(continuation)
                    return false
                }
                state.isLocked = true
                return true
            }
            if acquired { continuation.resume() }
        }
    }

    /// Hands the lock straight to the oldest waiter, so nobody can barge in between.
    package func unlock() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.isLocked = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }

    package func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await lock()
        defer { unlock() }
        return try await body()
    }

    /// How many callers wait behind the holder (for tests that check ordering).
    package var waiterCount: Int {
        state.withLock { $0.waiters.count }
    }
}
