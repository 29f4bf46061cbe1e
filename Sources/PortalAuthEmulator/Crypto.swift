import CPortalShim
import Foundation

/// HMAC and SHA-256 through GLib (there is no CryptoKit on Linux), plus the encodings the tokens use.
enum Crypto {
    static func hmacSHA1(key: [UInt8], message: [UInt8]) -> [UInt8] { hmac(G_CHECKSUM_SHA1, key, message) }
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] { hmac(G_CHECKSUM_SHA256, key, message) }

    private static func hmac(_ type: GChecksumType, _ key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let length = key.withUnsafeBufferPointer { k in
            message.withUnsafeBufferPointer { m in
                out.withUnsafeMutableBufferPointer { o in
                    portal_emu_hmac(type, k.baseAddress, gsize(k.count), m.baseAddress, gsize(m.count), o.baseAddress)
                }
            }
        }
        return Array(out.prefix(Int(length)))
    }

    static func sha256Hex(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard let hex = bytes.withUnsafeBufferPointer({ portal_emu_sha256_hex($0.baseAddress, gsize($0.count)) }) else { return "" }
        defer { g_free(hex) }
        return String(cString: hex)
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// URL-safe random text (base64url, no padding): `bytes` of entropy.
    static func randomToken(bytes: Int = 24) -> String { base64URL(randomBytes(bytes)) }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func base64URLDecode(_ text: String) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map { Array($0) }
    }

    private static let base32Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

    /// RFC 4648 base32 without padding (what authenticator apps and oathtool read).
    static func base32(_ bytes: [UInt8]) -> String {
        var out = ""
        var buffer = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                out.append(base32Alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { out.append(base32Alphabet[(buffer << (5 - bits)) & 31]) }
        return out
    }

    /// Constant-time comparison for secrets.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<a.count { diff |= a[i] ^ b[i] }
        return diff == 0
    }
}
