import FoundationEssentials

/// The claims of a JWT (`header.claims.signature`), read, not verified: the cores hold no key for
/// the tokens they carry. Every later call is authorised by the server, which does verify them.
package struct JWTClaims: Sendable, Equatable {
    package enum Failure: Error, Sendable, Equatable {
        /// Not `header.claims[.signature]`, or the claims part is empty.
        case malformed
        /// The claims part is not base64 or base64url.
        case notBase64
        /// The claims part is not a JSON object.
        case notAnObject
    }

    package let values: [String: JSONValue]

    package init(values: [String: JSONValue]) {
        self.values = values
    }

    package init(jwt: String) throws(Failure) {
        let segments = jwt.utf8.split(separator: UInt8(ascii: "."), maxSplits: 3, omittingEmptySubsequences: false)
        guard segments.count >= 2, !segments[1].isEmpty else { throw .malformed }
        guard let bytes = Base64URL.decode(String(decoding: segments[1], as: UTF8.self)) else { throw .notBase64 }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)),
            let object = value.objectValue
        else { throw .notAnObject }
        values = object
    }

    /// A string claim; a number or boolean is not a string (42 never becomes "42").
    package func string(_ name: String) -> String? { values[name]?.stringValue }

    package func number(_ name: String) -> Double? { values[name]?.numberValue }

    /// `aud` may be one string or a list of them.
    package func strings(_ name: String) -> [String] {
        switch values[name] {
        case .string(let text)?: return [text]
        case .array(let list)?: return list.compactMap(\.stringValue)
        default: return []
        }
    }

    /// `exp` as a date, when present.
    package var expiresAt: Date? {
        number("exp").map { Date(timeIntervalSince1970: $0) }
    }
}
