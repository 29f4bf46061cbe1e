import AuthBase
import Foundation

/// A config file problem, naming the field at fault (`environments[0].users[2].email`).
struct ConfigError: Error, CustomStringConvertible {
    let field: String
    let problem: String
    var description: String { field.isEmpty ? problem : "\(field): \(problem)" }

    init(field: String, problem: String) {
        self.field = field
        self.problem = problem
    }

    init(path: [any CodingKey], problem: String) {
        self.init(field: Self.field(path), problem: problem)
    }

    /// What `JSONDecoder` found wrong, said as the config's own errors say it, at its coding path.
    init(_ error: DecodingError) {
        switch error {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            self.init(path: context.codingPath, problem: "must be \(Self.expected(type))")
        case .keyNotFound(let key, let context):
            self.init(path: context.codingPath + [key], problem: "is required")
        case .dataCorrupted(let context):
            self.init(path: context.codingPath, problem: context.debugDescription)
        @unknown default:
            self.init(field: "", problem: "\(error)")
        }
    }

    /// `environments[0].users[2].email`: keys joined by dots, array positions in brackets.
    static func field(_ path: [any CodingKey]) -> String {
        path.reduce(into: "") { field, key in
            if let index = key.intValue {
                field += "[\(index)]"
            } else {
                field += field.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
    }

    private static func expected(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Double.Type, is Int.Type: "a number"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}

/// A key of a path the decoder did not walk: a provider's identifier in `providers`, or the
/// position in an array that a check over the whole array (duplicates) finds at fault.
struct ConfigKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(_ name: String) { (stringValue, intValue) = (name, nil) }
    init(_ index: Int) { (stringValue, intValue) = ("Index \(index)", index) }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(intValue) }
}

extension KeyedDecodingContainer {
    /// The coding path of `key`'s value.
    func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    /// `key`'s value; nil when absent or null. A value of another type is `problem`, at the key's
    /// path (a problem deeper inside the value keeps its own path).
    func optional<Value: Decodable>(_ key: Key, or problem: String) throws -> Value? {
        do {
            return try decodeIfPresent(Value.self, forKey: key)
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.count == path(key).count {
            throw ConfigError(path: path(key), problem: problem)
        }
    }

    /// `key`'s value; absent, null or of another type, it is `problem`.
    func required<Value: Decodable>(_ key: Key, or problem: String) throws -> Value {
        guard let value: Value = try optional(key, or: problem) else { throw ConfigError(path: path(key), problem: problem) }
        return value
    }

    /// `key`'s array with each element that is not a string as nil; nil when absent or null.
    func strings(_ key: Key, or problem: String) throws -> [String?]? {
        let list: [JSONValue]? = try optional(key, or: problem)
        return list?.map(\.stringValue)
    }
}
