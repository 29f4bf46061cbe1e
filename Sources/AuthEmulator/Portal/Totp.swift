import AuthBase
import Foundation

/// RFC 6238 TOTP as authenticator apps do it: HMAC-SHA1, 6 digits, 30-second steps.
enum Totp {
    static let period = 30
    static let digits = 6
    /// A code from one step before or after the current one is still accepted (clock skew).
    static let allowedSkewSteps = 1
    /// 160 bits, the RFC 4226 recommendation.
    static let secretBytes = 20

    static func step(at unixSeconds: Int) -> Int { unixSeconds / period }

    static func code(secret: [UInt8], step: Int) -> String {
        var counter = UInt64(step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Array($0) }
        let mac = Crypto.hmacSHA1(key: secret, message: message)
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let value =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        let code = value % 1_000_000
        return String(format: "%06u", code)
    }

    /// The step whose code equals `code` within the skew window around `unixSeconds`, if any.
    static func matchingStep(secret: [UInt8], code: String, at unixSeconds: Int) -> Int? {
        guard code.count == digits, code.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let current = step(at: unixSeconds)
        for candidate in (current - allowedSkewSteps)...(current + allowedSkewSteps)
        where Crypto.equal(Array(Self.code(secret: secret, step: candidate).utf8), Array(code.utf8)) {
            return candidate
        }
        return nil
    }

    /// The otpauth:// URI authenticator apps scan, labelled "Portal:<email>".
    static func link(email: String, secretBase32: String) -> String {
        "otpauth://totp/Portal:\(JavaURLEncoder.encode(email))?secret=\(secretBase32)"
            + "&issuer=Portal&algorithm=SHA1&digits=\(digits)&period=\(period)"
    }
}
