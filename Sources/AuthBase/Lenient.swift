/// A response field read leniently: absent, null or of another type, it is nil, and the caller
/// decides whether missing is fatal; one bad field never costs the others. Left out of the JSON
/// when nil, as the emulator's answers need.
@propertyWrapper
package struct Lenient<Value: Codable & Sendable>: Codable, Sendable {
    package var wrappedValue: Value?

    package init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    package init(from decoder: any Decoder) throws {
        wrappedValue = try? decoder.singleValueContainer().decode(Value.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension KeyedDecodingContainer {
    /// What a synthesized `init(from:)` calls for a `@Lenient` field: an absent key is nil too.
    package func decode<Value>(_: Lenient<Value>.Type, forKey key: Key) throws -> Lenient<Value> {
        Lenient(wrappedValue: (try? decodeIfPresent(Value.self, forKey: key)) ?? nil)
    }
}

extension KeyedEncodingContainer {
    /// What a synthesized `encode(to:)` calls for a `@Lenient` field: nil is left out.
    package mutating func encode<Value>(_ field: Lenient<Value>, forKey key: Key) throws {
        try encodeIfPresent(field.wrappedValue, forKey: key)
    }
}
