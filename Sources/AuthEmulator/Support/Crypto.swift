import AuthBase
import CEmulatorServer
import Foundation

/// HMAC and SHA-256 through GLib (there is no CryptoKit on Linux), random bytes, and base32.
enum Crypto {
    static func hmacSHA1(key: [UInt8], message: [UInt8]) -> [UInt8] { hmac(G_CHECKSUM_SHA1, key, message) }
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] { hmac(G_CHECKSUM_SHA256, key, message) }

    private static func hmac(_ type: GChecksumType, _ key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        let state = g_hmac_new(type, key, gsize(key.count))
        defer { g_hmac_unref(state) }
        g_hmac_update(state, message, gssize(message.count))
        var digest = [UInt8](repeating: 0, count: 32)
        var length = gsize(digest.count)
        g_hmac_get_digest(state, &digest, &length)
        return Array(digest.prefix(Int(length)))
    }

    static func sha256Hex(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard let hex = g_compute_checksum_for_data(G_CHECKSUM_SHA256, bytes, gsize(bytes.count)) else { return "" }
        defer { g_free(hex) }
        return String(cString: hex)
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        let state = g_checksum_new(G_CHECKSUM_SHA256)
        defer { g_checksum_free(state) }
        g_checksum_update(state, bytes, gssize(bytes.count))
        var digest = [UInt8](repeating: 0, count: 32)
        var length = gsize(digest.count)
        g_checksum_get_digest(state, &digest, &length)
        return Array(digest.prefix(Int(length)))
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// URL-safe random text (base64url, no padding): `bytes` of entropy.
    static func randomToken(bytes: Int = 24) -> String { Base64URL.encode(randomBytes(bytes)) }

    private static let base32Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

    /// RFC 4648 base32 without padding (what authenticator apps and oathtool read).
    static func base32(_ bytes: [UInt8]) -> String {
        var out = ""
        var buffer = 0
        var bits = 0
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

    /// Whether `candidate` is `secret`, comparing digests: the time taken says nothing about how much
    /// of `candidate` was right (the admin token, the dashboard key).
    static func sameSecret(_ candidate: String?, _ secret: String) -> Bool {
        guard let candidate else { return false }
        return equal(sha256(Array(candidate.utf8)), sha256(Array(secret.utf8)))
    }

    /// Constant-time comparison for secrets.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<a.count { diff |= a[i] ^ b[i] }
        return diff == 0
    }
}
