import Foundation

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

    static func endUserId(from userJwt: String) throws -> String {
        let segments = userJwt.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count >= 2, !segments[1].isEmpty else {
            throw PortalAuthError.invalidUserJwt(detail: malformedDetail)
        }
        guard let claimsData = decodeBase64(segments[1]) else {
            throw PortalAuthError.invalidUserJwt(detail: notBase64Detail)
        }
        guard let object = try? JSONSerialization.jsonObject(with: claimsData),
              let claims = object as? [String: Any] else {
            throw PortalAuthError.invalidUserJwt(detail: unreadableClaimsDetail)
        }
        // `as? String` rejects numbers and booleans, so 42 never becomes "42".
        guard let endUserId = claims["endUserId"] as? String,
              !endUserId.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw PortalAuthError.invalidUserJwt(detail: missingEndUserIdDetail)
        }
        return endUserId
    }

    /// Accepts both alphabets (`+/` and `-_`), with or without `=` padding.
    static func decodeBase64(_ segment: Substring) -> Data? {
        var text = String(segment)
        while text.hasSuffix("=") { text.removeLast() }
        guard !text.contains("=") else { return nil }
        text = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        switch text.utf8.count % 4 {
        case 1: return nil
        case 2: text += "=="
        case 3: text += "="
        default: break
        }
        return Data(base64Encoded: text)
    }
}
