import AuthBase
import Foundation

/// The HS256 user JWT handed out while a TOTP code is pending. The key lives only in this process.
struct JwtSigner {
    static let lifetimeSeconds = 600
    private let key: [UInt8]

    init(key: [UInt8] = Crypto.randomBytes(32)) { self.key = key }

    struct Claims {
        var endUserId: String
        var authEnvironmentId: String
        var isAccountAbstracted: Bool
        var issuedAt: Int
        var expiresAt: Int
    }

    func sign(_ claims: Claims) -> String {
        let header = Base64URL.encode(Array(JSON.encode(["alg": "HS256", "typ": "JWT"])))
        let payload = Base64URL.encode(
            Array(
                JSON.encode(
                    [
                        "endUserId": claims.endUserId,
                        "authEnvironmentId": claims.authEnvironmentId,
                        "isAccountAbstracted": claims.isAccountAbstracted,
                        "iat": claims.issuedAt,
                        "exp": claims.expiresAt
                    ] as [String: Any])))
        let signingInput = header + "." + payload
        return signingInput + "." + Base64URL.encode(Crypto.hmacSHA256(key: key, message: Array(signingInput.utf8)))
    }

    /// The claims of a JWT this signer issued, or nil when it is malformed, forged or expired at `now`.
    func verify(_ token: String, now: Int) -> Claims? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let signature = Base64URL.decode(parts[2]) else { return nil }
        let expected = Crypto.hmacSHA256(key: key, message: Array((parts[0] + "." + parts[1]).utf8))
        guard Crypto.equal(signature, expected), let claims = try? JWTClaims(jwt: token),
            let endUserId = claims.string("endUserId"), let environment = claims.string("authEnvironmentId"),
            let iat = claims.number("iat"), let exp = claims.number("exp"), now < Int(exp)
        else { return nil }
        return Claims(
            endUserId: endUserId, authEnvironmentId: environment,
            isAccountAbstracted: claims.values["isAccountAbstracted"]?.boolValue ?? false,
            issuedAt: Int(iat), expiresAt: Int(exp))
    }
}
