import AuthBase
import CAuthPlatform

/// `CryptoProvider` on OpenSSL's libcrypto, through the platform layer's C module (crypto.c).
public struct LibcryptoProvider: CryptoProvider {
    /// The provider; libcrypto needs no set-up.
    public init() {}

    /// A fresh P-256 key pair from libcrypto's CSPRNG.
    /// - Throws: `CryptoError` when libcrypto fails.
    public func generateP256() throws -> P256KeyPair {
        var privateKey = [UInt8](repeating: 0, count: 32)
        var publicKey = [UInt8](repeating: 0, count: 33)
        guard portal_p256_generate(&privateKey, &publicKey) == 1 else { throw CryptoError("generate a P-256 key") }
        return P256KeyPair(privateKey: privateKey, publicKey: publicKey)
    }

    /// The compressed public key of `privateKey`.
    /// - Throws: `CryptoError` when `privateKey` is not a valid P-256 scalar.
    public func p256PublicKey(privateKey: [UInt8]) throws -> [UInt8] {
        guard privateKey.count == 32 else { throw CryptoError("read a P-256 private key") }
        var publicKey = [UInt8](repeating: 0, count: 33)
        guard portal_p256_public_key(privateKey, &publicKey) == 1 else { throw CryptoError("read a P-256 private key") }
        return publicKey
    }

    /// ECDSA P-256 over SHA-256 of `message`, DER-encoded.
    /// - Throws: `CryptoError` when `privateKey` is not a valid P-256 scalar.
    public func p256Sign(_ message: [UInt8], privateKey: [UInt8]) throws -> [UInt8] {
        guard privateKey.count == 32 else { throw CryptoError("sign with a P-256 key") }
        var signature = [UInt8](repeating: 0, count: PORTAL_P256_SIGNATURE_MAX_BYTES)
        var length = 0
        guard portal_p256_sign(privateKey, message, message.count, &signature, &length) == 1 else {
            throw CryptoError("sign with a P-256 key")
        }
        return Array(signature.prefix(length))
    }

    /// Whether the DER `signature` signs `message` for `publicKey` (compressed or uncompressed).
    public func p256Verify(_ signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        portal_p256_verify(publicKey, publicKey.count, message, message.count, signature, signature.count) == 1
    }

    /// The uncompressed SEC1 form (`04 || x || y`, 65 bytes) of a compressed or uncompressed public key,
    /// as a JWK's `x` and `y` need it. Not part of `CryptoProvider`: only the emulator publishes keys.
    /// Throws when the bytes are not a point on P-256, so it also validates a key.
    package func p256UncompressedPublicKey(_ publicKey: [UInt8]) throws -> [UInt8] {
        var uncompressed = [UInt8](repeating: 0, count: PORTAL_P256_UNCOMPRESSED_BYTES)
        guard portal_p256_uncompressed(publicKey, publicKey.count, &uncompressed) == 1 else {
            throw CryptoError("read a P-256 public key")
        }
        return uncompressed
    }

    /// The SHA-256 digest of `data`.
    public func sha256(_ data: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        // EVP_Digest fails only when the library itself is broken; an empty digest then matches nothing.
        return portal_sha256(data, data.count, &digest) == 1 ? digest : []
    }

    /// `count` bytes from libcrypto's CSPRNG.
    /// - Throws: `CryptoError` when it cannot supply them.
    public func randomBytes(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard portal_random_bytes(&bytes, count) == 1 else { throw CryptoError("read random bytes") }
        return bytes
    }
}
