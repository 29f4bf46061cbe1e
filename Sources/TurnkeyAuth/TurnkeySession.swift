import FoundationEssentials

/// A Turnkey session: the claims of its JWT, read, not verified (the core holds no key for it, and
/// every stamped request is checked by Turnkey), and the session key it is kept under. The JWT
/// itself stays inside the core; `description` never shows it.
public struct TurnkeySession: Sendable, Equatable, CustomStringConvertible {
    /// The name the session is stored under (the configuration's `defaultSessionKey` unless the call gave one).
    public let sessionKey: String
    /// The user's sub-organization.
    public let organizationId: String
    /// The signed-in user.
    public let userId: String
    /// The compressed public key of the key that signs for this session (lower-case hex).
    public let publicKey: String
    /// When the session ends (the JWT's `exp`).
    public let expiresAt: Date
    /// `SESSION_TYPE_READ_WRITE` or `SESSION_TYPE_READ_ONLY`, when the JWT says.
    public let sessionType: String?
    let jwt: String

    /// The claims of `jwt`, or the name of the first one missing (`exp`, `public_key`,
    /// `organization_id`, `user_id`; `jwt` when it cannot be read at all).
    init(jwt: String, sessionKey: String) throws(MissingClaim) {
        guard let claims = try? JWTClaims(jwt: jwt) else { throw MissingClaim(name: "jwt") }
        guard let expiresAt = claims.expiresAt else { throw MissingClaim(name: "exp") }
        guard let publicKey = claims.string("public_key")?.nonBlank?.lowercased() else { throw MissingClaim(name: "public_key") }
        guard let organizationId = claims.string("organization_id")?.nonBlank else { throw MissingClaim(name: "organization_id") }
        guard let userId = claims.string("user_id")?.nonBlank else { throw MissingClaim(name: "user_id") }
        self.sessionKey = sessionKey
        self.organizationId = organizationId
        self.userId = userId
        self.publicKey = publicKey
        self.expiresAt = expiresAt
        self.sessionType = claims.string("session_type")
        self.jwt = jwt
    }

    struct MissingClaim: Error {
        let name: String
    }

    /// Whether `expiresAt` has been reached at `now`.
    public func isExpired(at now: Date) -> Bool {
        now >= expiresAt
    }

    /// The session's claims; the JWT is shown as `[redacted]`.
    public var description: String {
        "TurnkeySession(sessionKey: \(sessionKey), organizationId: \(organizationId), userId: \(userId), "
            + "publicKey: \(publicKey), expiresAt: \(expiresAt), jwt: \(SecretRedaction.placeholder))"
    }
}
