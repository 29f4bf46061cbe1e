import AuthBase
import Foundation

/// `X-Stamp` (contract §8): base64url of `{"publicKey","scheme","signature"}`, an ECDSA P-256 /
/// SHA-256 signature (DER, hex) over the exact body bytes. A request is accepted only when the
/// signature verifies and the key is a live session of the organization the body names.
extension TurnkeyBackend {
    static let stampRefused = "could not verify api key signature"

    /// The public key (compressed, lower-case hex) whose signature over the body the stamp carries.
    func verifyStamp(_ request: EmulatorRequest) throws(TurnkeyError) -> String {
        func refuse(_ reason: String) -> TurnkeyError { .init(status: 401, code: 16, Self.stampRefused, reason: reason) }
        guard let header = request.header(TurnkeyWire.Header.stamp), !header.isEmpty else { throw refuse("STAMP_MISSING") }
        guard let json = Base64URL.decode(header),
            let stamp = try? JSONDecoder().decode(TurnkeyWire.Stamp.self, from: Data(json))
        else { throw refuse("STAMP_MALFORMED") }
        guard stamp.scheme == TurnkeyWire.stampScheme else { throw refuse("STAMP_SCHEME_UNSUPPORTED") }
        let publicKey = stamp.publicKey.lowercased()
        guard publicKey.utf8.count == 66, let keyBytes = Hex.decode(publicKey), let signature = Hex.decode(stamp.signature),
            context.libcrypto.p256Verify(signature, message: Array(request.body), publicKey: keyBytes)
        else {
            throw refuse("SIGNATURE_INVALID")
        }
        return publicKey
    }

    /// The session of a verified stamp's key, live and in `organizationId`.
    func stampSession(publicKey: String, organizationId: String) throws(TurnkeyError) -> EmulatedTurnkeySession {
        guard let session = directory.session(publicKey: publicKey) else {
            throw TurnkeyError(status: 401, code: 16, Self.stampRefused, reason: "PUBLIC_KEY_UNKNOWN")
        }
        guard session.organizationId == organizationId else {
            throw TurnkeyError(status: 401, code: 16, Self.stampRefused, reason: "ORGANIZATION_MISMATCH")
        }
        guard now < session.expiresAt else {
            throw TurnkeyError(status: 401, code: 16, "session expired", reason: "SESSION_EXPIRED")
        }
        return session
    }
}
