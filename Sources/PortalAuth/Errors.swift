import Foundation

/// The ways a sign-in can fail, as in Portal's iOS `PortalAuth` 8.x.
/// Every message says what happened and what to do next, and never contains a grant, token or JWT.
public enum PortalAuthError: Error, Sendable, Equatable {
    case invalidArgument(name: String)
    case magicLinkNotConfigured
    case authMethodUnavailable(AuthMethod)
    case authenticationFailed(error: String)
    case malformedResponse(path: String, missing: String)
    case invalidGrantResponse
    case invalidUserJwt(detail: String)
    case sessionStorageFailure(message: String)
    case accountAbstractionUnavailable(message: String)
    case rateLimited
    case totpQrUnavailable
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
}

/// Failures reported by Portal's HTTP API.
public enum PortalRequestsError: Error, Sendable, Equatable {
    /// Any 401: rejected grant, unknown environment, redirect URL not allow-listed, revoked session.
    case unauthorized
    /// Another 4xx, as "<status> - <body>".
    case clientError(String)
    case internalServerError(String)
    case redirectError(String)
    case couldNotParseHttpResponse
}
