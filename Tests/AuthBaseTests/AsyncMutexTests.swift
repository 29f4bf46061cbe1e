import AuthTestSupport
import Testing

@testable import AuthBase

@Suite("AsyncMutex", .timeLimit(.minutes(1)))
struct AsyncMutexTests {
    @Test func waitersRunInArrivalOrderOneAtATime() async throws {
        let mutex = AsyncMutex()
        let order = Box<[Int]>([])
        let inside = Box(0)
        await mutex.lock()
        var tasks: [Task<Void, any Error>] = []
        for index in 1...5 {
            tasks.append(
                Task {
                    try await mutex.withLock {
                        let concurrent = inside.withLock {
                            $0 += 1
                            return $0
                        }
                        #expect(concurrent == 1)
                        order.withLock { $0.append(index) }
                        await Task.yield()
                        inside.withLock { $0 -= 1 }
                    }
                })
            // Each waiter is queued before the next one starts.
            #expect(await eventually { mutex.waiterCount == index })
        }
        mutex.unlock()
        for task in tasks { try await task.value }
        #expect(order.current == [1, 2, 3, 4, 5])
    }

    @Test func cancelledWaiterKeepsItsPlace() async throws {
        let mutex = AsyncMutex()
        let ran = Box(false)
        await mutex.lock()
        let waiter = Task { try await mutex.withLock { ran.withLock { $0 = true } } }
        #expect(await eventually { mutex.waiterCount == 1 })
        waiter.cancel()
        #expect(!ran.current)
        mutex.unlock()
        try await waiter.value
        #expect(ran.current)
    }

    @Test func errorsReleaseTheLock() async throws {
        struct Boom: Error {}
        let mutex = AsyncMutex()
        await #expect(throws: Boom.self) { try await mutex.withLock { throw Boom() } }
        #expect(try await mutex.withLock { 42 } == 42)
    }
}
