import FoundationEssentials

// The ways a sign-in can fail, as in Portal's iOS `PortalAuth` 8.x. Each carries the facts (status,
// path, provider, which store failure, retry-after); the app and the CLI each turn them into words
// in one table of their own. `description` is for logs and never contains a grant, token or JWT.

/// The ways a sign-in call fails before or after Portal answers: a bad argument, a method the
/// environment does not offer, an answer without what it must hold, a store failure, a rate limit.
public enum PortalAuthError: Error, Sendable, Equatable {
    /// An argument is blank or malformed (`authEnvironmentId`, `redirectUrl`, `apiHost`, `email`,
    /// `credentials`); `name` says which. Nothing was sent.
    case invalidArgument(name: String)
    /// `sendMagicLink` was called on an instance made without a `MagicLinkConfig`; nothing was sent.
    case magicLinkNotConfigured
    /// The method has no browser sign-in (the email link), or the environment does not offer it.
    case authMethodUnavailable(AuthMethod)
    /// The redirect carried `error=` (bounded to 100 characters, secrets redacted).
    case authenticationFailed(error: String)
    /// Portal's 2xx answer at `path` lacks `missing` (`data`, `endUserId`, a provider's URL…).
    case malformedResponse(path: String, missing: String)
    /// Portal's answer to a grant exchange is neither a session nor a TOTP step.
    case invalidGrantResponse
    /// The `userJwt` failed one of the checks `verifyTotp` makes before sending (nothing was sent).
    case invalidUserJwt(detail: UserJwtCheck)
    /// The session store failed to read, save or delete; the store's own failure, redacted.
    case sessionStorageFailure(SessionStoreError)
    /// The instance asked for account abstraction and Portal answered a 400 with this message.
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
    /// The sign-in ended before its redirect was exchanged: the task was cancelled, the sign-in
    /// was cancelled (`cancelPendingSignIn`, `clearPersistedSession`), or it waited too long.
    case closed = "POPUP_CLOSED"
    /// No browser sign-in can run: no presentation anchor (or its window is gone), no browser (or
    /// it could not be opened), or nothing can receive the redirect.
    case unavailable = "POPUP_UNAVAILABLE"
    /// Another `signInWith*` of this instance is still running.
    case signInInProgress = "SIGN_IN_ALREADY_IN_PROGRESS"
    /// The redirect that arrived is not for this sign-in, or carries no grant.
    case callbackIncomplete = "CALLBACK_INCOMPLETE"
}

/// Failures of a stored session's credentials.
public enum PortalCredentialError: Error, Sendable, Equatable {
    /// No credential is available (from the iOS SDK; this port does not throw it).
    case unavailable
    /// The credential provider failed (from the iOS SDK; this port does not throw it).
    case providerFailure
    /// The session was invalidated (`invalidate()`, a sign-out, or Portal's 401); sign in again.
    case sessionInvalidated
    /// The credential is not valid (from the iOS SDK; this port does not throw it).
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
    /// A 5xx; `detail` is the body, redacted and bounded.
    case internalServerError(status: Int, detail: String)
    /// A 3xx (Portal's API does not redirect); `detail` is the body, redacted and bounded.
    case redirectError(status: Int, detail: String)
    /// A 2xx body that is not JSON, or a status outside 300–599 that is not a success.
    case couldNotParseHttpResponse(path: String)
}
