/// The two encodings of a P-256 ECDSA signature: DER (`SEQUENCE { INTEGER r, INTEGER s }`, what
/// libcrypto and Turnkey's stamps use) and raw `r || s`, 32 bytes each (what JWS ES256 uses, RFC 7518
/// §3.4). Only the encoding changes here; signing and verifying stay in the crypto library.
package enum ECDSASignature {
    package static let rawBytes = 64
    private static let scalarBytes = 32

    /// `r || s` from a DER signature; nil unless it is strict DER with two positive integers that
    /// fit in 32 bytes and nothing after them.
    package static func raw(fromDER der: [UInt8]) -> [UInt8]? {
        guard der.count >= 2, der[0] == 0x30, Int(der[1]) == der.count - 2, der[1] < 0x80 else { return nil }
        var index = 2
        var output: [UInt8] = []
        for _ in 0..<2 {
            guard index + 2 <= der.count, der[index] == 0x02 else { return nil }
            let length = Int(der[index + 1])
            let start = index + 2
            guard length >= 1, length <= scalarBytes + 1, start + length <= der.count else { return nil }
            var integer = Array(der[start..<start + length])
            guard integer[0] & 0x80 == 0 else { return nil } // negative
            if integer.count > 1, integer[0] == 0 {
                guard integer[1] & 0x80 != 0 else { return nil } // needless leading zero
                integer.removeFirst()
            }
            guard integer.count <= scalarBytes else { return nil }
            output += [UInt8](repeating: 0, count: scalarBytes - integer.count) + integer
            index = start + length
        }
        return index == der.count ? output : nil
    }

    /// The DER form of `r || s` (64 bytes); nil for any other length.
    package static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == rawBytes else { return nil }
        let integers = [Array(raw[0..<scalarBytes]), Array(raw[scalarBytes...])].map { scalar -> [UInt8] in
            var bytes = Array(scalar.drop { $0 == 0 })
            if bytes.isEmpty { bytes = [0] }
            if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
            return [0x02, UInt8(bytes.count)] + bytes
        }
        let body = integers[0] + integers[1]
        return [0x30, UInt8(body.count)] + body
    }
}
