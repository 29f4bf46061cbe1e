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
        let header = Crypto.base64URL(Array(JSON.encode(["alg": "HS256", "typ": "JWT"])))
        let payload = Crypto.base64URL(Array(JSON.encode([
            "endUserId": claims.endUserId,
            "authEnvironmentId": claims.authEnvironmentId,
            "isAccountAbstracted": claims.isAccountAbstracted,
            "iat": claims.issuedAt,
            "exp": claims.expiresAt,
        ] as [String: Any])))
        let signingInput = header + "." + payload
        return signingInput + "." + Crypto.base64URL(Crypto.hmacSHA256(key: key, message: Array(signingInput.utf8)))
    }

    /// The claims of a JWT this signer issued, or nil when it is malformed, forged or expired at `now`.
    func verify(_ token: String, now: Int) -> Claims? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let signature = Crypto.base64URLDecode(parts[2]) else { return nil }
        let expected = Crypto.hmacSHA256(key: key, message: Array((parts[0] + "." + parts[1]).utf8))
        guard Crypto.equal(signature, expected),
              let payloadBytes = Crypto.base64URLDecode(parts[1]),
              let payload = JSON.object(from: Data(payloadBytes)) else { return nil }
        let fields = JSONFields(object: payload)
        guard let endUserId = fields.string("endUserId"), let environment = fields.string("authEnvironmentId"),
              let iat = fields.number("iat"), let exp = fields.number("exp"), now < Int(exp) else { return nil }
        return Claims(endUserId: endUserId, authEnvironmentId: environment,
                      isAccountAbstracted: fields.bool("isAccountAbstracted") ?? false,
                      issuedAt: Int(iat), expiresAt: Int(exp))
    }
}
