import Foundation

/// One line of the CLI's output: a JSON object whose keys keep the order they are given in,
/// so `result` or `error` comes first for a person reading along.
enum JSONValue {
    case string(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    static func optional(_ value: Bool?) -> JSONValue { value.map(JSONValue.bool) ?? .null }

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

    private static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

enum Output {
    /// Writes one JSON object as a line on stdout and flushes, so a reader sees each result at once.
    static func line(_ pairs: [(String, JSONValue)]) {
        FileHandle.standardOutput.write(Data((JSONValue.object(pairs).encoded + "\n").utf8))
    }

    /// A line for a person on stderr (usage hints, error explanations); never contains a secret.
    static func note(_ text: String) {
        FileHandle.standardError.write(Data(("portal-auth: " + text + "\n").utf8))
    }
}
