import Foundation
import Synchronization

/// A server that answers every connection with the same raw HTTP response: a backend that says
/// something the emulator never would (a 200 without Portal's `{"data":…}` envelope, an endless
/// body, an answer trickled a few bytes at a time), or a proxy that only records what it was asked for.
public final class CannedHTTPServer: @unchecked Sendable {
    public let port: Int
    public let address: String
    private let listener: Int32
    private let response: Data
    private let trickle: (bytes: Int, interval: TimeInterval)?
    private let received = Mutex<[String]>([])
    private let stopped = Mutex(false)

    /// How many requests arrived so far (counted once read, before anything is answered).
    public var requestsReceived: Int { received.withLock { $0.count } }
    /// The first line of every request so far (`GET /path HTTP/1.1`, `CONNECT host:443 HTTP/1.1`).
    public var requestLines: [String] { received.withLock { $0 } }

    /// - Parameters:
    ///   - address: the IPv4 address to listen on (loopback unless a test needs another).
    ///   - headers: extra header lines, e.g. `["Content-Length: 99999999"]`; without a
    ///     Content-Length of its own the response declares the body's.
    ///   - trickle: write the response `bytes` at a time, waiting `interval` between writes (the
    ///     first write too comes only after `interval`).
    ///   - declareLength: false sends no Content-Length: the body ends when the connection closes.
    public init(
        status: String = "200 OK", body: String, headers: [String] = [], address: String = "127.0.0.1",
        trickle: (bytes: Int, interval: TimeInterval)? = nil, declareLength: Bool = true
    ) throws {
        var head = ["HTTP/1.1 \(status)", "Content-Type: application/json", "Connection: close"] + headers
        if declareLength,
            !headers.contains(where: { $0.lowercased().hasPrefix("content-length:") || $0.lowercased().hasPrefix("transfer-encoding:") })
        {
            head.append("Content-Length: \(body.utf8.count)")
        }
        response = Data((head.joined(separator: "\r\n") + "\r\n\r\n" + body).utf8)
        self.trickle = trickle
        self.address = address
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_addr.s_addr = inet_addr(address)
        socketAddress.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        port = Int(UInt16(bigEndian: socketAddress.sin_port))
        Thread.detachNewThread { [self] in serve() }
    }

    public var apiHost: String { "\(address):\(port)" }
    public var baseURL: URL { URL(string: "http://\(address):\(port)")! }

    /// Stops accepting, and a trickle in progress: the serving thread (which keeps the server alive)
    /// ends with its test, not seconds later or never (LeakSanitizer would report what it still holds
    /// at exit).
    public func stop() {
        stopped.withLock { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Waits `interval`, in short steps so that `stop` ends the wait; false once stopped.
    private func pause(_ interval: TimeInterval) -> Bool {
        let end = Date().addingTimeInterval(interval)
        while Date() < end {
            if stopped.withLock({ $0 }) { return false }
            Thread.sleep(forTimeInterval: min(0.05, max(0, end.timeIntervalSinceNow)))
        }
        return !stopped.withLock { $0 }
    }

    private func serve() {
        signal(SIGPIPE, SIG_IGN) // a client that gives up mid-answer must not end the test process
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = read(connection, &buffer, buffer.count) // one request; only its first line is kept
            let request = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
            received.withLock { $0.append(request.components(separatedBy: "\r\n").first ?? "") }
            if let trickle {
                var offset = 0
                while offset < response.count {
                    guard pause(trickle.interval) else { break }
                    let end = min(offset + trickle.bytes, response.count)
                    let written = response[offset..<end].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                    if written <= 0 { break }
                    offset = end
                }
            } else {
                response.withUnsafeBytes { _ = write(connection, $0.baseAddress, $0.count) }
            }
            close(connection)
        }
    }
}
