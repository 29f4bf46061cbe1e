import FoundationEssentials

/// Reads the `endUserId` claim of a `userJwt` (the TOTP step's token).
///
/// The TOTP endpoint answers without an `endUserId`, so this claim is the only place the
/// session's end user can come from. It is read, not trusted: the signature is not checked
/// (the core has no key) and every later call is authorised by the session token anyway.
/// Details are fixed sentences so an error never echoes the JWT.
enum UserJwt {
    static let malformedDetail = "The userJwt does not have the header.claims.signature shape."
    static let notBase64Detail = "The claims part of the userJwt is not base64 or base64url."
    static let unreadableClaimsDetail = "The claims part of the userJwt is not a JSON object."
    static let missingEndUserIdDetail = "The userJwt carries no endUserId claim."

    static func claims(of userJwt: String) throws -> JWTClaims {
        do {
            return try JWTClaims(jwt: userJwt)
        } catch .malformed {
            throw PortalAuthError.invalidUserJwt(detail: malformedDetail)
        } catch .notBase64 {
            throw PortalAuthError.invalidUserJwt(detail: notBase64Detail)
        } catch .notAnObject {
            throw PortalAuthError.invalidUserJwt(detail: unreadableClaimsDetail)
        }
    }

    static func endUserId(from userJwt: String) throws -> String {
        guard let endUserId = try claims(of: userJwt).string("endUserId"), !endUserId.isBlank else {
            throw PortalAuthError.invalidUserJwt(detail: missingEndUserIdDetail)
        }
        return endUserId
    }
}
