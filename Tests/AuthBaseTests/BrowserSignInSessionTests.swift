import AuthTestSupport
import Foundation
import Testing

@testable import AuthBase

@Suite("BrowserSignInSession: the in-flight sign-in takes the redirect its core hands it, once", .timeLimit(.minutes(1)))
struct BrowserSignInSessionTests {
    private static let page = URL(string: "https://idp.example/authorize?state=s")!

    private static func session(onClose: @escaping @Sendable () -> Void = {}) -> BrowserSignInSession<String> {
        BrowserSignInSession(authorizeURL: page, onClose: onClose)
    }

    @Test func aRedirectDeliveredBeforeTheWaitIsKeptForIt() async throws {
        let session = Self.session()
        #expect(session.resume(with: "app://cb?mine=1"))
        #expect(try await session.redirect() == "app://cb?mine=1")
    }

    @Test func itKeepsTheAuthorizePageAndTakesOneRedirectOnly() async throws {
        let session = Self.session()
        #expect(session.authorizeURL == Self.page)
        let waiting = Task { try await session.redirect() }
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

    @Test func aSignInWhoseRedirectComesAnotherWayTakesNothingFromTheDesktop() async throws {
        let session = BrowserSignInSession<String>(authorizeURL: Self.page, takesRedirectsFromTheDesktop: false)
        #expect(!session.resume(with: "app://cb?mine=1"))
        session.close()
        #expect(session.isClosed)
    }

    @Test func theSlotRunsOneSignInAtATimeAndClosesItOnRelease() async throws {
        let slot = BrowserSignInSlot<String>()
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
