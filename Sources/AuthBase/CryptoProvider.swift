/// A P-256 key pair: the private scalar (32 bytes) and the compressed SEC1 public key (33 bytes).
/// `description` never shows the private half.
public struct P256KeyPair: Sendable, Equatable, CustomStringConvertible {
    /// The private scalar, 32 bytes. Never printed.
    public let privateKey: [UInt8]
    /// The compressed SEC1 public key, 33 bytes (`02` or `03`, then x).
    public let publicKey: [UInt8]

    /// A key pair from its two halves, as a `CryptoProvider` makes them.
    public init(privateKey: [UInt8], publicKey: [UInt8]) {
        self.privateKey = privateKey
        self.publicKey = publicKey
    }

    /// The compressed public key in lower-case hex (66 characters), as Turnkey names keys.
    public var publicKeyHex: String { Hex.encode(publicKey) }

    /// The public key in hex; the private key is shown as `[redacted]`.
    public var description: String { "P256KeyPair(publicKey: \(publicKeyHex), privateKey: \(SecretRedaction.placeholder))" }
}

/// The cryptography the cores need, from a well-kept library in the platform layer (libcrypto):
/// the cores hold no elliptic-curve or hash code of their own, and unit tests inject a fake.
public protocol CryptoProvider: Sendable {
    /// A fresh P-256 key pair from a CSPRNG.
    func generateP256() throws -> P256KeyPair
    /// The compressed public key of `privateKey`; throws when it is not a valid P-256 scalar.
    func p256PublicKey(privateKey: [UInt8]) throws -> [UInt8]
    /// ECDSA P-256 over SHA-256 of `message`, DER-encoded.
    func p256Sign(_ message: [UInt8], privateKey: [UInt8]) throws -> [UInt8]
    /// Whether `signature` (DER) signs `message` for `publicKey` (compressed or uncompressed SEC1).
    func p256Verify(_ signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool
    /// The SHA-256 digest of `data` (32 bytes): PKCE challenges and OIDC nonces.
    func sha256(_ data: [UInt8]) -> [UInt8]
    /// `count` bytes from a CSPRNG: PKCE verifiers and OAuth states.
    func randomBytes(_ count: Int) throws -> [UInt8]
}

/// A cryptographic operation failed (the library said no); never carries key material.
public struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done, in words ("generate a P-256 key").
    public let operation: String
    /// A failure of `operation`.
    public init(_ operation: String) { self.operation = operation }
    /// `CryptoError(operation)`, for logs.
    public var description: String { "CryptoError(\(operation))" }
}

/// Lower-case hexadecimal.
package enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var output: [UInt8] = []
        for byte in bytes { output += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of `text` (either case), or nil when it is not an even number of hex digits.
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard bytes.count % 2 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count / 2)
        var index = 0
        while index < bytes.count {
            guard let high = QueryString.hexValue(bytes[index]), let low = QueryString.hexValue(bytes[index + 1]) else { return nil }
            output.append(high << 4 | low)
            index += 2
        }
        return output
    }
}
