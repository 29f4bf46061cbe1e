import AuthTestSupport
import Testing

@testable import AuthBase

@Suite("BrowserSignInSession: the in-flight sign-in takes its own redirect once", .timeLimit(.minutes(1)))
struct BrowserSignInSessionTests {
    private static func session(onClose: @escaping @Sendable () -> Void = {}) -> BrowserSignInSession {
        BrowserSignInSession(isOwnRedirect: { $0.hasPrefix("app://cb?mine") }, onClose: onClose)
    }

    @Test func aRedirectDeliveredBeforeTheWaitIsKeptForIt() async throws {
        let session = Self.session()
        #expect(session.resume(with: "app://cb?mine=1"))
        #expect(try await session.redirect() == "app://cb?mine=1")
    }

    @Test func onlyItsOwnRedirectIsTakenAndOnlyOnce() async throws {
        let session = Self.session()
        let waiting = Task { try await session.redirect() }
        #expect(!session.resume(with: "app://cb?other=1"))
        #expect(!session.resume(with: "other.app://x"))
        #expect(await eventually { session.resume(with: "app://cb?mine=1") })
        #expect(try await waiting.value == "app://cb?mine=1")
        #expect(!session.resume(with: "app://cb?mine=2"), "a second redirect was taken")
    }

    @Test func closingEndsTheWaitTakesNothingMoreAndRunsOnCloseOnce() async throws {
        let closes = Box(0)
        let session = Self.session { closes.withLock { $0 += 1 } }
        let waiting = Task { try await session.redirect() }
        session.close()
        session.close()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(!session.resume(with: "app://cb?mine=1"))
        #expect(session.isClosed)
        #expect(closes.current == 1)
    }

    @Test func cancellingTheWaitingTaskClosesTheSession() async throws {
        let session = Self.session()
        let waiting = Task { try await session.redirect() }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(session.isClosed)
        #expect(!session.resume(with: "app://cb?mine=1"))
    }

    @Test func aTakenRedirectIsNotUndoneByAClose() async throws {
        let closes = Box(0)
        let session = Self.session { closes.withLock { $0 += 1 } }
        #expect(session.resume(with: "app://cb?mine=1"))
        #expect(try await session.redirect() == "app://cb?mine=1")
        session.close()
        #expect(!session.isClosed)
        #expect(closes.current == 0)
    }

    @Test func theSlotRunsOneSignInAtATimeAndClosesItOnRelease() async throws {
        let slot = BrowserSignInSlot()
        #expect(slot.reserve())
        #expect(!slot.reserve(), "a second sign-in started while one runs")
        let session = Self.session()
        slot.open(session)
        #expect(slot.session === session)
        slot.release()
        #expect(session.isClosed && slot.session == nil)
        #expect(slot.reserve())
    }
}
