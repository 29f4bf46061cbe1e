import Synchronization

/// Keeps a sign-out final. A grant exchange or TOTP verification that overlaps a sign-out (it was
/// asked for while one was running, or one began before it reached the front of the queue) gives up
/// before sending anything, instead of saving a session behind the sign-out's delete.
///
/// The FIFO `AsyncMutex` alone cannot promise this: two calls made at the same moment from different
/// tasks reach it in either order, and the exchange hops into a task of its own before queueing.
final class SignOutFence: Sendable {
    struct Ticket {
        fileprivate let signOutsBegun: Int
        fileprivate let signOutRunning: Bool
    }

    private struct State {
        var begun = 0
        var ended = 0
    }

    private let state = Mutex(State())

    /// Taken when an exchange or verification is asked for, before it queues for the mutex.
    func ticket() -> Ticket {
        state.withLock { Ticket(signOutsBegun: $0.begun, signOutRunning: $0.begun != $0.ended) }
    }

    func signOutBegan() {
        state.withLock { $0.begun += 1 }
    }

    func signOutEnded() {
        state.withLock { $0.ended += 1 }
    }

    /// True when a sign-out was running when `ticket` was taken, or has begun since.
    func hasOvertaken(_ ticket: Ticket) -> Bool {
        ticket.signOutRunning || state.withLock { $0.begun } != ticket.signOutsBegun
    }
}
