/// The OIDC nonce that binds a provider's `id_token` to one session key: the lower-case hex SHA-256
/// of the ASCII of the compressed public key's hex (Turnkey's rule; docs example: `0394e549…8e281a`
/// gives `1663bba4…22ef82`). Turnkey refuses a token that carries it in neither of `claimNames`.
enum Nonce {
    /// The claims Turnkey binds a key through; either may carry it.
    static let claimNames = ["nonce", "tknonce"]

    static func of(publicKeyHex: String, crypto: any CryptoProvider) -> String {
        Hex.encode(crypto.sha256(Array(publicKeyHex.utf8)))
    }
}
