import FoundationEssentials

/// A P-256 session key as the stamper uses it. `description` never shows the private half.
struct SigningKey: Sendable, CustomStringConvertible {
    let privateKey: [UInt8]
    let publicKeyHex: String

    var description: String { "SigningKey(publicKey: \(publicKeyHex))" }
}

/// Signs API requests the way Turnkey checks them: `X-Stamp` is base64url (no padding) of
/// `{"publicKey":…,"scheme":"SIGNATURE_SCHEME_TK_API_P256","signature":…}`, the signature being
/// ECDSA P-256 over SHA-256 of the exact body bytes, DER, lower-case hex.
struct Stamper: Sendable {
    let crypto: any CryptoProvider

    func stamp(_ body: Data, with key: SigningKey) throws -> String {
        let signature: [UInt8]
        do {
            signature = try crypto.p256Sign(Array(body), privateKey: key.privateKey)
        } catch {
            throw TurnkeyAuthError.cryptoFailure(operation: "sign a request")
        }
        let stamp = TurnkeyWire.Stamp(publicKey: key.publicKeyHex, signature: Hex.encode(signature))
        return Base64URL.encode(try TurnkeyHTTP.encode(stamp))
    }
}
