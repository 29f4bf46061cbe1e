import AuthBase
import Foundation
import PortalAuthGNOME

/// The JWTs the emulator signs (ES256, keys made at start-up and kept for the process's life):
/// - the fake Google's and Apple's OIDC `id_token`s, with the identity provider key, published at
///   `/idp/.well-known/jwks.json`;
/// - the OIDC tokens Turnkey mints for Discord and X, and Turnkey's session JWTs, with the Turnkey
///   key, published at `/turnkey/.well-known/jwks.json`.
/// Verification goes the way a relying party's does: from the token's issuer to that issuer's
/// published JWKS document, to the key named by `kid`, to the signature.
final class OIDCTokens {
    /// `id_token`s and the OIDC tokens Turnkey mints live 10 minutes.
    static let lifetimeSeconds = 600

    enum KeyFamily: String {
        case identityProviders = "idp"
        case turnkey
        /// Where the family's JWKS document is served.
        var jwksPath: String { "/\(rawValue)/.well-known/jwks.json" }
    }

    private struct SigningKey {
        let kid: String
        let keyPair: P256KeyPair
        /// `04 || x || y`.
        let uncompressedPublicKey: [UInt8]
    }

    private let libcrypto: LibcryptoProvider
    private let keys: [KeyFamily: SigningKey]

    init(libcrypto: LibcryptoProvider) throws {
        self.libcrypto = libcrypto
        var keys: [KeyFamily: SigningKey] = [:]
        for family in [KeyFamily.identityProviders, .turnkey] {
            let keyPair = try libcrypto.generateP256()
            let uncompressed = try libcrypto.p256UncompressedPublicKey(keyPair.publicKey)
            let kid = "emulator-\(family.rawValue)-" + Hex.encode(libcrypto.sha256(uncompressed).prefix(6))
            keys[family] = SigningKey(kid: kid, keyPair: keyPair, uncompressedPublicKey: uncompressed)
        }
        self.keys = keys
    }

    // MARK: signing

    /// A compact JWS: `{"alg":"ES256","kid":…,"typ":"JWT"}`, the claims, and the raw `r || s` signature.
    func sign(_ claims: [String: Any], with family: KeyFamily) throws -> String {
        guard let key = keys[family] else { throw CryptoError("sign a token") }
        let header = Base64URL.encode(JSON.encode(["alg": "ES256", "kid": key.kid, "typ": "JWT"]))
        let signingInput = header + "." + Base64URL.encode(JSON.encode(claims))
        let der = try libcrypto.p256Sign(Array(signingInput.utf8), privateKey: key.keyPair.privateKey)
        guard let raw = ECDSASignature.raw(fromDER: der) else { throw CryptoError("sign a token") }
        return signingInput + "." + Base64URL.encode(raw)
    }

    /// The JWKS document of a key family, exactly as served.
    func jwksDocument(_ family: KeyFamily) -> Data {
        guard let key = keys[family] else { return JSON.encode(["keys": [Any]()]) }
        let point = key.uncompressedPublicKey
        let jwk: [String: Any] = [
            "kty": "EC", "crv": "P-256", "alg": "ES256", "use": "sig", "kid": key.kid,
            "x": Base64URL.encode(point[1..<33]), "y": Base64URL.encode(point[33..<65])
        ]
        return JSON.encode(["keys": [jwk]])
    }

    // MARK: verifying

    /// Why a token was refused; the words name no part of the token.
    enum Refusal: Error, Equatable, CustomStringConvertible {
        case malformed
        case unknownIssuer
        case badSignature
        case expired
        case missingClaim(String)

        var description: String {
            switch self {
            case .malformed: "the OIDC token is not a signed JWT"
            case .unknownIssuer: "the OIDC token's issuer is not known to this emulator"
            case .badSignature: "the OIDC token's signature does not verify"
            case .expired: "the OIDC token has expired"
            case .missingClaim(let name): "the OIDC token has no \(name) claim"
            }
        }
    }

    struct Verified {
        let claims: JWTClaims
        let issuer: String
        let audience: String
        let subject: String
        let nonce: String?
        /// Turnkey's second binding claim, for providers whose `nonce` the app does not choose.
        let tknonce: String?
        let expiresAt: Int
    }

    /// The claims of a token signed by the key its issuer publishes, and unexpired at `now`.
    /// `jwksForIssuer` maps an issuer to its JWKS document (nil for an issuer nobody vouches for).
    func verify(_ token: String, now: Int, jwksForIssuer: (String) -> Data?) throws(Refusal) -> Verified {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerBytes = Base64URL.decode(parts[0]),
            let header = JSON.object(from: Data(headerBytes)),
            header["alg"] as? String == "ES256",
            let claims = try? JWTClaims(jwt: token)
        else { throw .malformed }
        guard let issuer = claims.string("iss"), let jwks = jwksForIssuer(issuer) else { throw .unknownIssuer }
        guard let kid = header["kid"] as? String,
            let publicKey = Self.publicKey(kid: kid, in: jwks),
            let raw = Base64URL.decode(parts[2]),
            let der = ECDSASignature.der(fromRaw: raw),
            libcrypto.p256Verify(der, message: Array((parts[0] + "." + parts[1]).utf8), publicKey: publicKey)
        else { throw .badSignature }
        guard let exp = claims.number("exp") else { throw .missingClaim("exp") }
        guard now < Int(exp) else { throw .expired }
        guard let audience = claims.strings("aud").first else { throw .missingClaim("aud") }
        guard let subject = claims.string("sub"), !subject.isEmpty else { throw .missingClaim("sub") }
        return Verified(
            claims: claims, issuer: issuer, audience: audience, subject: subject,
            nonce: claims.string("nonce"), tknonce: claims.string("tknonce"), expiresAt: Int(exp))
    }

    /// `04 || x || y` of the P-256 key `kid` in a JWKS document.
    private static func publicKey(kid: String, in jwks: Data) -> [UInt8]? {
        guard let keys = JSON.object(from: jwks)?["keys"] as? [[String: Any]],
            let jwk = keys.first(where: { $0["kid"] as? String == kid }),
            jwk["kty"] as? String == "EC", jwk["crv"] as? String == "P-256",
            let x = (jwk["x"] as? String).flatMap(Base64URL.decode), x.count == 32,
            let y = (jwk["y"] as? String).flatMap(Base64URL.decode), y.count == 32
        else { return nil }
        return [0x04] + x + y
    }
}
