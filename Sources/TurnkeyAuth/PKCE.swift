/// Proof Key for Code Exchange (RFC 7636) as Discord and X need it: a verifier of 32 random bytes
/// in base64url (43 characters) and its S256 challenge. The verifier is a secret; the challenge and
/// `state` go into the authorize URL.
struct PKCE: Sendable {
    static let method = "S256"

    let verifier: String

    init(crypto: any CryptoProvider) throws {
        verifier = Base64URL.encode(try crypto.randomBytes(32))
    }

    init(verifier: String) {
        self.verifier = verifier
    }

    func challenge(crypto: any CryptoProvider) -> String {
        Base64URL.encode(crypto.sha256(Array(verifier.utf8)))
    }
}

/// The `state` of one sign-in: 16 random bytes in base64url (22 characters, 128 bits), so nobody can
/// guess it to slip their own sign-in into ours (RFC 8252 §8.9). Shorter than a PKCE verifier on
/// purpose: public values must not look like secret ones to the output checks.
enum SignInState {
    static func make(crypto: any CryptoProvider) throws -> String {
        Base64URL.encode(try crypto.randomBytes(16))
    }

    /// Longer values are not ours, and are never looked up.
    static let maxLength = 128
}
