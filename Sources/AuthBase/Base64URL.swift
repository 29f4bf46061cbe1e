import FoundationEssentials

/// base64url (RFC 4648 §5) as tokens use it: encoded without padding; decoded from either
/// alphabet (`-_` or `+/`), padding optional, so a JWT segment from any issuer reads.
package enum Base64URL {
    package static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        String(
            Data(bytes).base64EncodedString().compactMap { character -> Character? in
                switch character {
                case "+": "-"
                case "/": "_"
                case "=": nil
                default: character
                }
            })
    }

    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var base64 = String(text)
        while base64.hasSuffix("=") { base64.removeLast() }
        guard !base64.contains("=") else { return nil }
        base64 = String(base64.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        switch base64.utf8.count % 4 {
        case 1: return nil
        case 2: base64 += "=="
        case 3: base64 += "="
        default: break
        }
        return Data(base64Encoded: base64).map(Array.init)
    }
}
