import Foundation

/// A lock-guarded box for the fakes' recorded state.
public final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    public var current: Value { withLock { $0 } }
}

/// A one-shot signal a test can wait on (a request reached the transport, a browser opened…).
public final class Signal: Sendable {
    public init() {}

    private let state = Box<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    public func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    public func wait() async {
        await withCheckedContinuation { continuation in
            let fired = state.withLock { state -> Bool in
                if !state.fired { state.waiters.append(continuation) }
                return state.fired
            }
            if fired { continuation.resume() }
        }
    }

    public var hasFired: Bool { state.withLock { $0.fired } }
}
