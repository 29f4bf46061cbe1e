import Testing
import AuthTestSupport
@testable import AuthBase

@Suite("RedirectInbox", .timeLimit(.minutes(1)))
struct RedirectInboxTests {
    @Test func nobodyListeningMeansNotTaken() {
        #expect(!RedirectInbox().deliver("app://cb?token=x"))
    }

    @Test func listenerReceivesDeliveredURIsInOrder() async {
        let inbox = RedirectInbox()
        let stream = inbox.redirects()
        #expect(inbox.deliver("app://cb?n=1"))
        #expect(inbox.deliver("app://cb?n=2"))
        var received: [String] = []
        for await uri in stream {
            received.append(uri)
            if received.count == 2 { break }
        }
        #expect(received == ["app://cb?n=1", "app://cb?n=2"])
    }

    @Test func listenerThatStopsIsRemoved() async {
        let inbox = RedirectInbox()
        let task = Task {
            for await _ in inbox.redirects() {}
        }
        #expect(await eventually { inbox.listenerCount == 1 })
        task.cancel()
        await task.value
        #expect(await eventually { inbox.listenerCount == 0 })
        #expect(!inbox.deliver("app://cb"))
    }
}
