import AuthBase
import Foundation

/// Reads the config file (`--config FILE`), and the fields the admin API changes with the same
/// checks; the sections decode themselves (EmulatorConfig.swift, TurnkeyConfig.swift).
enum ConfigLoader {
    static func load(path: String) throws -> EmulatorConfig {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(field: "", problem: "cannot read config file \(path)")
        }
        return try parse(data)
    }

    /// The config file decoded; every error names the field at fault by its coding path.
    static func parse(_ data: Data) throws -> EmulatorConfig {
        do {
            return try JSONDecoder().decode(EmulatorConfig.self, from: data)
        } catch let error as DecodingError {
            // Not JSON, or JSON but not an object: nothing to name a field in.
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw ConfigError(field: "", problem: "the config file is not a JSON object")
            }
            if case .typeMismatch(_, let context) = error, context.codingPath.isEmpty {
                throw ConfigError(field: "", problem: "the config file is not a JSON object")
            }
            throw ConfigError(error)
        }
    }

    /// Letters, digits, '-' and '_': environment and Auth Proxy config IDs.
    static func isIdentifier(_ id: String) -> Bool {
        !id.isEmpty && id.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" || $0 == "_" }
    }

    static let redirectUrlsProblem = "must be a non-empty array of URLs"

    /// The allow list of redirect URLs, compared byte for byte as Portal does: a custom scheme
    /// (`myapp://auth/callback`) or a loopback one (`http://127.0.0.1:8791/auth/callback`). `urls`
    /// holds nil for an element that is not a string; nil itself when absent.
    static func redirectUrls(_ urls: [String?]?, field: String) throws -> [String] {
        guard let urls, !urls.isEmpty else { throw ConfigError(field: field, problem: redirectUrlsProblem) }
        return try urls.enumerated().map { index, url in
            guard let url, url.contains(":"), url == url.trimmingCharacters(in: .whitespacesAndNewlines) else {
                throw ConfigError(field: "\(field)[\(index)]", problem: "must be an absolute URL such as myapp://auth/callback")
            }
            return url
        }
    }

    static var methodsProblem: String { "must be an array of \(EmulatorConfig.knownAuthMethods.joined(separator: ", "))" }

    /// Sign-in method names (GOOGLE, APPLE, EMAIL_MAGIC_LINK), duplicates dropped; `[]` when absent
    /// (nil) and not `required`. `names` holds nil for an element that is not a string.
    static func methods(_ names: [String?]?, field: String, required: Bool) throws -> [AuthMethod] {
        guard let names else {
            if required { throw ConfigError(field: field, problem: methodsProblem) }
            return []
        }
        var list: [AuthMethod] = []
        for (index, name) in names.enumerated() {
            guard let known = name.flatMap(AuthMethod.init(rawValue:)) else {
                throw ConfigError(
                    field: "\(field)[\(index)]", problem: "must be one of \(EmulatorConfig.knownAuthMethods.joined(separator: ", "))")
            }
            if !list.contains(known) { list.append(known) }
        }
        return list
    }

    /// The admin API's environment changes, read as the config file's fields are.
    static func methodList(_ value: Any?, field: String, required: Bool) throws -> [AuthMethod] {
        guard let value else { return try methods(nil, field: field, required: required) }
        guard let list = value as? [Any] else { throw ConfigError(field: field, problem: methodsProblem) }
        return try methods(list.map { $0 as? String }, field: field, required: required)
    }

    static func redirectUrlList(_ value: Any?, field: String) throws -> [String] {
        try redirectUrls((value as? [Any])?.map { $0 as? String }, field: field)
    }
}

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
