import Foundation
import Synchronization

/// A loopback server that answers every connection with the same raw HTTP response: a backend
/// that says something the emulator never would (e.g. a 200 without Portal's `{"data":…}` envelope),
/// or a proxy that only records what it was asked for.
final class CannedHTTPServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let response: Data
    private let received = Mutex<[String]>([])

    /// The first line of every request so far (`GET /path HTTP/1.1`, `CONNECT host:443 HTTP/1.1`).
    var requestLines: [String] { received.withLock { $0 } }

    init(status: String = "200 OK", body: String) throws {
        response = Data(("HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n\(body)").utf8)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in serve() }
    }

    var apiHost: String { "127.0.0.1:\(port)" }

    /// Stops accepting; the serving thread ends with the failed accept.
    func stop() { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = read(connection, &buffer, buffer.count)   // one request; only its first line is kept
            let request = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
            received.withLock { $0.append(request.components(separatedBy: "\r\n").first ?? "") }
            response.withUnsafeBytes { _ = write(connection, $0.baseAddress, $0.count) }
            close(connection)
        }
    }
}
