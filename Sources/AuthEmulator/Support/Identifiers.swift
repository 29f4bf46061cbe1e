import AuthBase

/// UUID-shaped identifiers (Portal's and Turnkey's IDs look like UUIDs).
enum Identifiers {
    /// `8-4-4-4-12` from the first 32 hex digits of `hex`: a stable ID derived from a hash.
    static func uuid(fromHex hex: String) -> String {
        let digits = Array(hex.prefix(32))
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }
        return groups.joined(separator: "-")
    }

    /// A fresh random UUID-shaped ID.
    static func random() -> String { uuid(fromHex: Hex.encode(Crypto.randomBytes(16))) }
}
