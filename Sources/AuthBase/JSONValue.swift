import FoundationEssentials

/// Any JSON value, decoded into something Sendable and typed: claims of a token, fields the
/// cores read leniently.
package enum JSONValue: Sendable, Equatable, Codable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    /// `body` as JSON (any value, also a bare string or number), or nil when it is not JSON.
    package static func parse(_ body: Data) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: body)
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let list = try? container.decode([JSONValue].self) {
            self = .array(list)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        case .bool(let flag): try container.encode(flag)
        case .array(let list): try container.encode(list)
        case .object(let object): try container.encode(object)
        case .null: try container.encodeNil()
        }
    }

    package var stringValue: String? { if case .string(let text) = self { text } else { nil } }
    package var numberValue: Double? { if case .number(let number) = self { number } else { nil } }
    package var boolValue: Bool? { if case .bool(let flag) = self { flag } else { nil } }
    package var objectValue: [String: JSONValue]? { if case .object(let object) = self { object } else { nil } }
    package var arrayValue: [JSONValue]? { if case .array(let list) = self { list } else { nil } }

    package subscript(key: String) -> JSONValue? { objectValue?[key] }
}
