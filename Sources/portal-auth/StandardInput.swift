import FoundationEssentials
import Glibc

/// Secrets read from stdin (`-`), so they never sit on a command line where every local user can
/// read them through /proc/PID/cmdline.
///
/// Read in bounded chunks: a line longer than its limit, or more than `maxInputBytes` in all, is
/// refused (exit 2) as soon as the reading passes the limit, so an endless or huge input is neither
/// waited for nor held in memory. The refusal names the limit and never repeats the input (it may be
/// a secret); nothing read is used.
enum StandardInput {
    /// What a line holds and the most characters (UTF-16 code units, as Portal's SDKs count a
    /// redirect URL) it may have. A line is read up to three bytes a character (UTF-8's most for one
    /// UTF-16 code unit), so a line longer in bytes is longer in characters too.
    struct Limit: Sendable {
        let what: String
        let maxCharacters: Int
        var maxBytes: Int { maxCharacters * 3 }
    }

    /// A redirect URL: longer ones are no redirect of Portal's or Turnkey's (both cores' limit).
    static let redirectURL = Limit(what: "A redirect URL", maxCharacters: 8192)
    /// A Portal user JWT: a few hundred characters; this is ample.
    static let userJwt = Limit(what: "A user JWT", maxCharacters: 16384)
    /// An OIDC token (a JWT from Google, Apple, Discord or X): a few kilobytes; this is ample.
    static let oidcToken = Limit(what: "An OIDC token", maxCharacters: 16384)
    /// The most stdin may hold in all (several redirect URLs, one per line).
    static let maxInputBytes = 64 * 1024

    /// The first line, without surrounding whitespace; nil at end of input.
    static func line(_ limit: Limit) throws -> String? {
        var reader = Reader()
        return try reader.nextLine(limit)?.trimmed
    }

    /// Every non-blank line, trimmed.
    static func lines(_ limit: Limit) throws -> [String] {
        var reader = Reader()
        var result: [String] = []
        while let next = try reader.nextLine(limit) {
            let trimmed = next.trimmed
            if !trimmed.isEmpty { result.append(trimmed) }
        }
        return result
    }

    static func tooLong(_ limit: Limit) -> ErrorReport {
        .usage(
            "\(limit.what) on stdin is longer than \(limit.maxCharacters) characters, the most portal-auth reads for one; "
                + "nothing was used.")
    }

    static var tooLarge: ErrorReport {
        .usage(
            "The input on stdin is larger than 64 KiB (\(maxInputBytes) bytes), the most portal-auth reads; nothing was used.")
    }

    /// Reads file descriptor 0 a chunk at a time, never more than one byte past `maxInputBytes`.
    private struct Reader {
        private var pending: [UInt8] = []
        private var total = 0
        private var atEnd = false

        /// The next line without its line break ("\n" or "\r\n"); nil at end of input.
        mutating func nextLine(_ limit: Limit) throws -> String? {
            var searched = 0
            while true {
                if let newline = pending[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Array(pending[..<newline])
                    pending.removeSubrange(...newline)
                    return try Self.decoded(line, limit)
                }
                searched = pending.count
                guard pending.count <= limit.maxBytes else { throw StandardInput.tooLong(limit) }
                if atEnd {
                    guard !pending.isEmpty else { return nil }
                    defer { pending = [] }
                    return try Self.decoded(pending, limit)
                }
                try readChunk()
            }
        }

        private mutating func readChunk() throws {
            let room = min(16 * 1024, StandardInput.maxInputBytes + 1 - total)
            var chunk = [UInt8](repeating: 0, count: room)
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, room) }
            if count < 0 && errno == EINTR { return }
            guard count > 0 else {
                atEnd = true // end of input, or stdin cannot be read: what came is all there is
                return
            }
            total += count
            guard total <= StandardInput.maxInputBytes else { throw StandardInput.tooLarge }
            pending.append(contentsOf: chunk[..<count])
        }

        /// The line as text (a carriage return before the newline dropped), within `limit`.
        private static func decoded(_ bytes: [UInt8], _ limit: Limit) throws -> String {
            let line = String(decoding: bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes[...], as: UTF8.self)
            guard line.utf16.count <= limit.maxCharacters else { throw StandardInput.tooLong(limit) }
            return line
        }
    }
}
