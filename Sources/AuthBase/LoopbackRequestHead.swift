/// The head of one HTTP/1.x request to the loopback redirect port, read as any local program may send
/// it: bytes arrive in pieces, and only the request line matters (a redirect is a GET of a path).
/// Pure, so it is fuzzed (`script/fuzz loopback`).
package enum LoopbackRequestHead: Equatable, Sendable {
    /// A head larger than this is not a redirect: Portal's are far below 8 KiB.
    package static let maxBytes = 16 * 1024

    /// The blank line has not arrived yet, and the head is within `maxBytes`.
    case incomplete
    /// The head is over `maxBytes` without its blank line: answered 400 and closed.
    case tooLarge
    /// The head is complete; nil when its request line is not HTTP/1.x with a printable target.
    case complete(RequestLine?)

    package struct RequestLine: Equatable, Sendable {
        package let method: String
        /// Exactly as sent: no decoding, so the path is compared byte for byte.
        package let target: String

        package init(method: String, target: String) {
            self.method = method
            self.target = target
        }
    }

    /// What `bytes` (everything read from the connection so far) amount to.
    package init(_ bytes: [UInt8]) {
        var reader = Reader()
        self = reader.append(bytes)
    }

    /// Reads a head as it arrives: each piece is scanned once (with the three bytes before it), so a
    /// sender of one byte at a time costs no more than one that sends it whole.
    package struct Reader: Sendable {
        package private(set) var bytes: [UInt8] = []
        private var scanned = 0

        package init() {}

        /// Adds the next piece read; what the head amounts to now.
        package mutating func append(_ piece: some Collection<UInt8>) -> LoopbackRequestHead {
            bytes.append(contentsOf: piece.prefix(LoopbackRequestHead.maxBytes + 4 - bytes.count))
            var index = max(0, scanned - 3)
            while index + 3 < bytes.count {
                if bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                    return index <= LoopbackRequestHead.maxBytes
                        ? .complete(LoopbackRequestHead.requestLine(bytes[..<index])) : .tooLarge
                }
                index += 1
            }
            scanned = bytes.count
            return bytes.count > LoopbackRequestHead.maxBytes ? .tooLarge : .incomplete
        }
    }

    /// `METHOD SP TARGET SP HTTP/1.x`, the method and target printable ASCII without spaces.
    private static func requestLine(_ head: ArraySlice<UInt8>) -> RequestLine? {
        let lineEnd = head.firstIndex(where: { $0 == 13 || $0 == 10 }) ?? head.endIndex
        let parts = head[..<lineEnd].split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].starts(with: Array("HTTP/1.".utf8)), !parts[0].isEmpty, !parts[1].isEmpty,
            parts[0].allSatisfy(isPrintable), parts[1].allSatisfy(isPrintable)
        else { return nil }
        return RequestLine(method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self))
    }

    private static func isPrintable(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
}
