import FoundationEssentials

// The ways a sign-in can fail, as in Portal's iOS `PortalAuth` 8.x. Each carries the facts (status,
// path, provider, which store failure, retry-after); the app and the CLI each turn them into words
// in one table of their own. `description` is for logs and never contains a grant, token or JWT.

public enum PortalAuthError: Error, Sendable, Equatable {
    case invalidArgument(name: String)
    case magicLinkNotConfigured
    case authMethodUnavailable(AuthMethod)
    /// The redirect carried `error=` (bounded to 100 characters, secrets redacted).
    case authenticationFailed(error: String)
    case malformedResponse(path: String, missing: String)
    case invalidGrantResponse
    /// The `userJwt` failed one of the checks `verifyTotp` makes before sending (nothing was sent).
    case invalidUserJwt(detail: UserJwtCheck)
    case sessionStorageFailure(SessionStoreError)
    case accountAbstractionUnavailable(message: String)
    /// Portal answered an authorize URL that is neither `https:` nor `http:` to this machine;
    /// nothing was opened.
    case unsafeAuthorizeUrl(scheme: String)
    /// Portal refused more attempts for now: sign-in emails (`sendMagicLink`) or codes (`verifyTotp`).
    case rateLimited(retryAfterSeconds: Int?)
    /// `TotpRequiredResult.qrCodeImage(scale:)` has no `totpLink` to draw (the user already
    /// enrolled), or the link cannot be encoded as a QR code.
    case totpQrUnavailable
}

extension PortalAuthError {
    /// The check a `userJwt` failed, in PortalSwift's order: its end user is read from the claims
    /// (expiry is Portal's to judge).
    public enum UserJwtCheck: String, Sendable, Equatable {
        /// Not `header.claims.signature`: fewer than two parts.
        case shape
        /// The claims part is empty or a single character (`header..sig`, `header.A.sig`): too short
        /// to hold any claim, so there is nothing to read.
        case claimsUnreadable
        /// The claims part is neither base64 nor base64url (padding optional).
        case base64
        /// The claims decode to something other than a JSON object.
        case claimsObject
        /// The claims carry no non-blank `endUserId` string.
        case endUserId
    }
}

/// Failures of the whole browser flow (`signInWithGoogle` / `signInWithApple`).
public enum PortalAuthSignInError: String, Error, Sendable, Equatable {
    case closed = "POPUP_CLOSED"
    case unavailable = "POPUP_UNAVAILABLE"
    case signInInProgress = "SIGN_IN_ALREADY_IN_PROGRESS"
    case callbackIncomplete = "CALLBACK_INCOMPLETE"
}

/// Failures of a stored session's credentials.
public enum PortalCredentialError: Error, Sendable, Equatable {
    case unavailable
    case providerFailure
    case sessionInvalidated
    case invalidApiKey

    /// True when only a new sign-in can fix this.
    public var requiresReauthentication: Bool {
        self == .sessionInvalidated || self == .invalidApiKey
    }
}

/// Failures reported by Portal's HTTP API, with the path that answered.
public enum PortalRequestsError: Error, Sendable, Equatable {
    /// Any 401: rejected grant, unknown environment, redirect URL not allow-listed, revoked session.
    case unauthorized(path: String)
    /// Another 4xx; `detail` is the body, redacted and bounded.
    case clientError(status: Int, detail: String)
    case internalServerError(status: Int, detail: String)
    case redirectError(status: Int, detail: String)
    case couldNotParseHttpResponse(path: String)
}
