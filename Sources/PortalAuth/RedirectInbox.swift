/// The app's and the tests' `RedirectSource`: the desktop's `::open` hands every URI to
/// `deliver`, and a sign-in waiting in `signInWith*` takes it.
public final class RedirectInbox: RedirectSource, Sendable {
    private let listeners = Locked<[Int: AsyncStream<String>.Continuation]>([:])
    private let nextId = Locked(0)

    public init() {}

    public func redirects() -> AsyncStream<String> {
        let id = nextId.withLock { value -> Int in
            value += 1
            return value
        }
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .unbounded)
        listeners.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.listeners.withLock { _ = $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Hands `uri` to every listening sign-in. Returns false when nobody is listening, so the
    /// caller should pass the URI to `handleRedirect` itself (a magic link, a late redirect).
    @discardableResult
    public func deliver(_ uri: String) -> Bool {
        let current = listeners.withLock { Array($0.values) }
        var taken = false
        for continuation in current {
            if case .enqueued = continuation.yield(uri) { taken = true }
        }
        return taken
    }

    /// How many sign-ins are listening right now.
    var listenerCount: Int {
        listeners.withLock { $0.count }
    }
}
