import Dispatch
import Synchronization
import Testing

@testable import AuthEmulator

/// The store behind the emulator's grants, authorization codes and OAuth states: each value is
/// handed out once, never after its lifetime on the emulator's clock, and one racer wins it.
@Suite("Expiring take-once store")
struct ExpiringTakeOnceStoreTests {
    let clock = EmulatorClock()

    @Test func aValueIsTakenOnceAndThenIsGone() {
        let store = ExpiringTakeOnceStore<String>(clock: clock)
        store.put("alice@example.com", for: "gc_1", lifetimeSeconds: 600)
        #expect(store.holds("gc_1"))
        #expect(store.take("gc_1") == "alice@example.com")
        #expect(store.take("gc_1") == nil)
        #expect(!store.holds("gc_1"))
        #expect(store.take("gc_unknown") == nil)
    }

    @Test func aValuePastItsLifetimeOnTheEmulatorsClockIsRefusedAndSpent() {
        let store = ExpiringTakeOnceStore<Int>(clock: clock)
        store.put(1, for: "early", lifetimeSeconds: 60)
        store.put(2, for: "late", lifetimeSeconds: 60)
        clock.advance(by: 30)
        #expect(store.take("early") == 1)
        clock.advance(by: 31)
        #expect(store.holds("late"))
        #expect(store.take("late") == nil)
        // Spent by the refused take: winding the clock back (a reset) does not revive it.
        clock.reset()
        #expect(store.take("late") == nil)
    }

    @Test func aValueTheTakeDoesNotAcceptStaysForTheTakeItBelongsTo() {
        let store = ExpiringTakeOnceStore<String>(clock: clock)
        store.put("local-dev", for: "pg_1", lifetimeSeconds: 900)
        #expect(store.take("pg_1") { $0 == "other-environment" } == nil)
        #expect(store.take("pg_1") { $0 == "local-dev" } == "local-dev")
        #expect(store.take("pg_1") { $0 == "local-dev" } == nil)
    }

    @Test func ofConcurrentTakesOfOneKeyExactlyOneWins() {
        let store = ExpiringTakeOnceStore<Int>(clock: clock)
        let keys = 200
        let racers = 8
        for key in 0..<keys { store.put(key, for: "key-\(key)", lifetimeSeconds: 600) }
        let wins = Mutex([Int](repeating: 0, count: keys))
        DispatchQueue.concurrentPerform(iterations: keys * racers) { index in
            let key = index % keys
            if let value = store.take("key-\(key)") {
                #expect(value == key)
                wins.withLock { $0[key] += 1 }
            }
        }
        #expect(wins.withLock { $0 } == [Int](repeating: 1, count: keys))
    }
}
