import Foundation

enum JSON {
    /// Sorted keys so responses are stable and readable.
    static func encode(_ object: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])) ?? Data("{}".utf8)
    }

    /// A JSON object body, or nil when the body is not one.
    static func object(from data: Data) -> [String: Any]? {
        guard !data.isEmpty,
            let value = try? JSONSerialization.jsonObject(with: data, options: [])
        else { return nil }
        return value as? [String: Any]
    }
}

/// Reads typed fields out of a decoded JSON object, keeping booleans and numbers apart
/// (Foundation decodes both as NSNumber; JSON `true` comes back as its boolean subclass).
struct JSONFields {
    let object: [String: Any]
    private static let booleanType = type(of: NSNumber(value: true))

    func has(_ key: String) -> Bool { object[key] != nil && !(object[key] is NSNull) }

    func string(_ key: String) -> String? { object[key] as? String }

    func bool(_ key: String) -> Bool? {
        guard let number = object[key] as? NSNumber, type(of: number) == Self.booleanType else { return nil }
        return number.boolValue
    }

    func number(_ key: String) -> Double? {
        guard let number = object[key] as? NSNumber, type(of: number) != Self.booleanType else { return nil }
        return number.doubleValue
    }
}
