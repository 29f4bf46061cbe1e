import Synchronization

/// Values that may be used once within a lifetime: a grant, an authorization code, an OAuth state.
/// Each is put with its lifetime on the emulator's clock and taken at most once: a second take, or
/// one after the lifetime, gets nothing. A take is atomic, so of two racing for one key one wins.
final class ExpiringTakeOnceStore<Value: Sendable>: Sendable {
    private struct Entry {
        let value: Value
        let expiresAt: Int
    }

    private let clock: EmulatorClock
    private let entries = Mutex<[String: Entry]>([:])

    init(clock: EmulatorClock) { self.clock = clock }

    func put(_ value: Value, for key: String, lifetimeSeconds: Int) {
        let entry = Entry(value: value, expiresAt: clock.unixSeconds + lifetimeSeconds)
        entries.withLock { $0[key] = entry }
    }

    /// The value, spent; nil when unknown, already taken or expired (an expired one is spent too).
    /// A value `accepts` refuses is not spent: it stays for the take it belongs to (a grant shown to
    /// another environment, a code shown to another provider).
    func take(_ key: String, where accepts: (Value) -> Bool = { _ in true }) -> Value? {
        let now = clock.unixSeconds
        return entries.withLock { entries -> Value? in
            guard let entry = entries[key], accepts(entry.value) else { return nil }
            entries[key] = nil
            return now < entry.expiresAt ? entry.value : nil
        }
    }

    /// Whether `key` was put and not taken yet, expired or not.
    func holds(_ key: String) -> Bool { entries.withLock { $0[key] != nil } }
}
