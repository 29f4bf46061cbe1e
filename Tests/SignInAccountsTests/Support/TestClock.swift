import AuthTestSupport
import Foundation
import TurnkeyAuth

/// Time that moves only when a test says so: `now` for expiry, and sleeps that end once `advance`
/// passes their deadline. The core and the service share it, as they share the system clock in the app.
final class TestClock: Sendable {
    private struct Sleeper {
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = TK.start
        var sleepers: [UUID: Sleeper] = [:]
        var cancelled: Set<UUID> = []
        /// Every sleep asked for, in seconds.
        var requested: [Double] = []
    }

    private let state = Box(State())

    var now: Date { state.current.now }
    var requestedSleeps: [Double] { state.current.requested }
    var sleeping: Int { state.current.sleepers.count }

    /// The clock as the core sees it. Weak: a sleeping task holds this clock and the clock holds the
    /// task's continuation, a cycle that would outlive the test; once the test lets the clock go, its
    /// sleepers are cancelled (`deinit`) and their tasks end.
    var turnkey: TurnkeyClock {
        TurnkeyClock(
            now: { [weak self] in self?.now ?? TK.start },
            sleep: { [weak self] duration in
                guard let self else { throw CancellationError() }
                try await sleep(duration)
            })
    }

    deinit {
        let sleepers = state.withLock { state in
            defer { state.sleepers = [:] }
            return Array(state.sleepers.values)
        }
        for sleeper in sleepers { sleeper.continuation.resume(throwing: CancellationError()) }
    }

    /// Moves time forward and ends the sleeps whose deadline it reached.
    func advance(seconds: TimeInterval) {
        let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.now += seconds
            let ids = state.sleepers.filter { $0.value.deadline <= state.now }.map(\.key)
            return ids.compactMap { state.sleepers.removeValue(forKey: $0)?.continuation }
        }
        for continuation in due { continuation.resume() }
    }

    private func sleep(_ duration: Duration) async throws {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    state.requested.append(seconds)
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if seconds <= 0 { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: state.now + seconds, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}
