import Foundation

/// Bytes over a plain TCP connection to 127.0.0.1, for what an HTTP library will not send (a chunked
/// body of a chosen size, a connection that says nothing at all).
public enum RawHTTP {
    public struct Failure: Error, CustomStringConvertible { public let description: String }

    /// What came back, and whether the server closed the connection (EOF) before `timeout`.
    public struct Reply: Sendable {
        public let text: String
        public let closedByServer: Bool
        /// Seconds from connecting to the server's close (or to the timeout).
        public let seconds: TimeInterval
        /// The status code of the first line, if it is an HTTP response.
        public var status: Int? {
            let parts = text.split(separator: " ", maxSplits: 2)
            return parts.count >= 2 && parts[0].hasPrefix("HTTP/") ? Int(parts[1]) : nil
        }
    }

    /// Connects to 127.0.0.1:`port`, writes `request` (which may be empty), then reads until the
    /// server closes the connection or `timeout` passes.
    public static func exchange(port: Int, request: Data, timeout: TimeInterval) throws -> Reply {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw Failure(description: "cannot connect to 127.0.0.1:\(port)") }
        let started = Date()
        signal(SIGPIPE, SIG_IGN)
        var offset = 0
        while offset < request.count {
            let written = request[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { break } // the server closed early: read what it said
            offset += written
        }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 16384)
        var pollSet = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let left = timeout - Date().timeIntervalSince(started)
            guard left > 0, poll(&pollSet, 1, Int32(left * 1000)) > 0 else {
                return Reply(
                    text: String(decoding: received, as: UTF8.self), closedByServer: false,
                    seconds: Date().timeIntervalSince(started))
            }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 {
                return Reply(
                    text: String(decoding: received, as: UTF8.self), closedByServer: true,
                    seconds: Date().timeIntervalSince(started))
            }
            received.append(contentsOf: buffer[0..<count])
        }
    }

    /// `body` as one request with `Transfer-Encoding: chunked`, in chunks of `chunkSize`.
    public static func chunkedPost(path: String, body: Data, chunkSize: Int = 4096, headers: [String] = []) -> Data {
        var request = Data(
            ([
                "POST \(path) HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json",
                "Transfer-Encoding: chunked"
            ] + headers).joined(separator: "\r\n").appending("\r\n\r\n").utf8)
        var offset = 0
        while offset < body.count {
            let end = min(offset + chunkSize, body.count)
            request.append(Data((String(end - offset, radix: 16) + "\r\n").utf8))
            request.append(body[offset..<end])
            request.append(Data("\r\n".utf8))
            offset = end
        }
        request.append(Data("0\r\n\r\n".utf8))
        return request
    }
}
