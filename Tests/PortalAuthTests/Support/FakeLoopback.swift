import AuthTestSupport
import Foundation

@testable import PortalAuth

/// A loopback listener without a socket: records the port it was asked for and how many requests the
/// transport had sent by then; once the sign-in waits, it puts `requests` to the sign-in's verdict
/// in order, as a browser (or a probe) would send them, and hands over the first one taken.
final class FakeLoopback: LoopbackRedirectListening, Sendable {
    struct Record {
        var ports: [UInt16] = []
        /// How many HTTP requests the transport had seen when the port was bound.
        var requestsBeforeListening: [Int] = []
        var verdicts: [LoopbackRequestVerdict] = []
        var closed = false
    }

    let record = Box(Record())
    private let failure: LoopbackListenError?
    private let requests: [String]
    private let transport: ScriptedTransport?

    init(requests: [String] = [], failure: LoopbackListenError? = nil, transport: ScriptedTransport? = nil) {
        self.requests = requests
        self.failure = failure
        self.transport = transport
    }

    func listen(
        port: UInt16, classify: @escaping @Sendable (String) -> LoopbackRequestVerdict
    ) async throws
        -> any LoopbackRedirectListener
    {
        let sent = transport?.requests.count ?? 0
        record.withLock {
            $0.ports.append(port)
            $0.requestsBeforeListening.append(sent)
        }
        if let failure { throw failure }
        return Listener(owner: self, classify: classify)
    }

    private final class Listener: LoopbackRedirectListener, Sendable {
        let owner: FakeLoopback
        let classify: @Sendable (String) -> LoopbackRequestVerdict
        private let closing = AsyncStream<Void>.makeStream()

        init(owner: FakeLoopback, classify: @escaping @Sendable (String) -> LoopbackRequestVerdict) {
            self.owner = owner
            self.classify = classify
        }

        func redirect() async -> String? {
            for url in owner.requests {
                let verdict = classify(url)
                owner.record.withLock { $0.verdicts.append(verdict) }
                if verdict == .take { return url }
            }
            for await _ in closing.stream {}
            return nil
        }

        func close() {
            owner.record.withLock { $0.closed = true }
            closing.continuation.finish()
        }
    }
}
