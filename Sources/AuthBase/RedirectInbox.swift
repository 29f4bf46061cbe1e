import Synchronization

/// The app's and the tests' `RedirectSource`: the desktop's `::open` hands every URI to
/// `deliver`, and a sign-in waiting for its redirect takes it.
public final class RedirectInbox: RedirectSource, Sendable {
    private struct State {
        var nextId = 0
        var listeners: [Int: AsyncStream<String>.Continuation] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    public func redirects() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .unbounded)
        let id = state.withLock { state -> Int in
            state.nextId += 1
            state.listeners[state.nextId] = continuation
            return state.nextId
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// Hands `uri` to every listening sign-in. Returns false when nobody is listening, so the
    /// caller handles the URI itself (a magic link, a late redirect).
    @discardableResult
    public func deliver(_ uri: String) -> Bool {
        let current = state.withLock { Array($0.listeners.values) }
        var taken = false
        for continuation in current {
            if case .enqueued = continuation.yield(uri) { taken = true }
        }
        return taken
    }

    /// How many sign-ins are listening right now.
    public var listenerCount: Int {
        state.withLock { $0.listeners.count }
    }
}
