import AuthBase
import Glibc

/// One line of the CLI's output: a JSON object whose keys keep the order they are given in,
/// so `result` or `error` comes first for a person reading along.
enum JSONOutput {
    case string(String)
    case bool(Bool)
    case null
    case array([JSONOutput])
    case object([(String, JSONOutput)])

    static func optional(_ value: String?) -> JSONOutput { value.map(JSONOutput.string) ?? .null }
    static func optional(_ value: Bool?) -> JSONOutput { value.map(JSONOutput.bool) ?? .null }

    var encoded: String {
        switch self {
        case .string(let text): return Self.quote(text)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map(\.encoded).joined(separator: ",") + "]"
        case .object(let pairs):
            return "{" + pairs.map { Self.quote($0.0) + ":" + $0.1.encoded }.joined(separator: ",") + "}"
        }
    }

    /// Every control character escaped (C0, DEL, C1, the bidirectional controls: `PrintableText`),
    /// so a server's text cannot act on the terminal the line is read on; still JSON that decodes to `text`.
    private static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" { out += "\\\"" } else { PrintableText.appendEscaped(scalar, to: &out) }
        }
        return out + "\""
    }
}

enum Output {
    /// Writes one JSON object as a line on stdout and flushes, so a reader sees each result at once.
    static func line(_ pairs: [(String, JSONOutput)]) {
        write(JSONOutput.object(pairs).encoded + "\n", to: STDOUT_FILENO)
    }

    /// A line for a person on stderr (usage hints, error explanations); never contains a secret.
    static func note(_ text: String) {
        write("portal-auth: " + text + "\n", to: STDERR_FILENO)
    }

    /// Unbuffered, all of it: each line reaches a reader at once, even one that waits for it.
    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return // stdout closed or full disk: nothing left to tell anyone
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
