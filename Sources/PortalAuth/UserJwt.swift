import FoundationEssentials

/// Reads the `endUserId` claim of a `userJwt` (the TOTP step's token).
///
/// The TOTP endpoint answers without an `endUserId`, so this claim is the only place the
/// session's end user can come from. It is read, not trusted: the signature is not checked
/// (the core has no key) and every later call is authorised by the session token anyway.
/// A failure names the check (`PortalAuthError.UserJwtCheck`), never the JWT.
enum UserJwt {
    static func claims(of userJwt: String) throws -> JWTClaims {
        // As PortalSwift: an empty or one-character claims part is unreadable, not a shape or base64 fault.
        let segments = userJwt.utf8.split(separator: UInt8(ascii: "."), maxSplits: 2, omittingEmptySubsequences: false)
        if segments.count >= 2, segments[1].count <= 1 {
            throw PortalAuthError.invalidUserJwt(detail: .claimsUnreadable)
        }
        do {
            return try JWTClaims(jwt: userJwt)
        } catch .malformed {
            throw PortalAuthError.invalidUserJwt(detail: .shape)
        } catch .notBase64 {
            throw PortalAuthError.invalidUserJwt(detail: .base64)
        } catch .notAnObject {
            throw PortalAuthError.invalidUserJwt(detail: .claimsObject)
        }
    }

    static func endUserId(from userJwt: String) throws -> String {
        guard let endUserId = try claims(of: userJwt).string("endUserId"), !endUserId.isBlank else {
            throw PortalAuthError.invalidUserJwt(detail: .endUserId)
        }
        return endUserId
    }
}
