import AuthTestSupport
import Foundation

@testable import PortalAuth

/// A loopback listener without a socket: records the port it was asked for, how long it was to be held
/// and how many requests the transport had sent by then; once the sign-in waits, it puts `requests`
/// to the sign-in's verdict in order, as a browser (or a probe) would send them, and hands over the
/// first one taken (or fails the wait with `waitFailure`). Port 0 "binds" `ephemeralPort`.
final class FakeLoopback: LoopbackRedirectListening, Sendable {
    struct Record {
        var ports: [UInt16] = []
        var holds: [Duration] = []
        /// How many HTTP requests the transport had seen when the port was bound.
        var requestsBeforeListening: [Int] = []
        var verdicts: [LoopbackRequestVerdict] = []
        var closed = false
    }

    let record = Box(Record())
    static let ephemeralPort: UInt16 = 49_321
    private let failure: LoopbackListenError?
    private let waitFailure: LoopbackListenError?
    private let requests: [String]
    private let transport: ScriptedTransport?

    init(
        requests: [String] = [], failure: LoopbackListenError? = nil, waitFailure: LoopbackListenError? = nil,
        transport: ScriptedTransport? = nil
    ) {
        self.requests = requests
        self.failure = failure
        self.waitFailure = waitFailure
        self.transport = transport
    }

    func listen(
        port: UInt16, holdingPortFor hold: Duration, classify: @escaping @Sendable (String) -> LoopbackRequestVerdict
    ) async throws
        -> any LoopbackRedirectListener
    {
        let sent = transport?.requests.count ?? 0
        record.withLock {
            $0.ports.append(port)
            $0.holds.append(hold)
            $0.requestsBeforeListening.append(sent)
        }
        if let failure { throw failure }
        return Listener(owner: self, port: port == 0 ? Self.ephemeralPort : port, classify: classify)
    }

    private final class Listener: LoopbackRedirectListener, Sendable {
        let owner: FakeLoopback
        let port: UInt16
        let classify: @Sendable (String) -> LoopbackRequestVerdict
        private let closing = AsyncStream<Void>.makeStream()

        init(owner: FakeLoopback, port: UInt16, classify: @escaping @Sendable (String) -> LoopbackRequestVerdict) {
            self.owner = owner
            self.port = port
            self.classify = classify
        }

        func redirect() async throws -> String? {
            if let failure = owner.waitFailure { throw failure }
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
