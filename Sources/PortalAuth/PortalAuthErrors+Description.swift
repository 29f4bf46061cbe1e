import FoundationEssentials

// Errors describe themselves as facts for logs and bug reports ("PortalRequestsError.unauthorized(path:
// /api/v3/auth/oauth/tokens)"), always through `SecretRedaction`. What a person reads is the app's and
// the CLI's business: each has one table that turns these facts into words.

extension PortalAuthError: LocalizedError, CustomStringConvertible {
    /// `PortalAuthError.case(facts)`, with anything shaped like a secret redacted.
    public var description: String {
        let facts: String
        switch self {
        case .invalidArgument(let name): facts = "invalidArgument(name: \(name))"
        case .magicLinkNotConfigured: facts = "magicLinkNotConfigured"
        case .authMethodUnavailable(let method): facts = "authMethodUnavailable(\(method.rawValue))"
        case .authenticationFailed(let error): facts = "authenticationFailed(error: \(error))"
        case .malformedResponse(let path, let missing): facts = "malformedResponse(path: \(path), missing: \(missing))"
        case .invalidGrantResponse: facts = "invalidGrantResponse"
        case .invalidUserJwt(let check): facts = "invalidUserJwt(\(check.rawValue))"
        case .sessionStorageFailure(let failure): facts = "sessionStorageFailure(\(failure))"
        case .accountAbstractionUnavailable(let message): facts = "accountAbstractionUnavailable(\(message))"
        case .rateLimited(let seconds): facts = "rateLimited(retryAfterSeconds: \(seconds.map(String.init) ?? "nil"))"
        case .totpQrUnavailable: facts = "totpQrUnavailable"
        case .unsafeAuthorizeUrl(let scheme): facts = "unsafeAuthorizeUrl(scheme: \(scheme))"
        }
        return SecretRedaction.redact("PortalAuthError." + facts)
    }

    /// The same as `description`: a log line, not words for a person.
    public var errorDescription: String? { description }
}

extension PortalAuthSignInError: LocalizedError, CustomStringConvertible {
    /// `PortalAuthSignInError(POPUP_CLOSED)` and so on: the raw value, as Portal's SDKs name it.
    public var description: String { "PortalAuthSignInError(\(rawValue))" }
    /// The same as `description`: a log line, not words for a person.
    public var errorDescription: String? { description }
}

extension PortalCredentialError: LocalizedError, CustomStringConvertible {
    /// `PortalCredentialError.case`, for logs.
    public var description: String {
        switch self {
        case .unavailable: return "PortalCredentialError.unavailable"
        case .providerFailure: return "PortalCredentialError.providerFailure"
        case .sessionInvalidated: return "PortalCredentialError.sessionInvalidated"
        case .invalidApiKey: return "PortalCredentialError.invalidApiKey"
        }
    }

    /// The same as `description`: a log line, not words for a person.
    public var errorDescription: String? { description }
}

extension PortalRequestsError: LocalizedError, CustomStringConvertible {
    /// `PortalRequestsError.case(path or status - detail)`, with anything shaped like a secret redacted.
    public var description: String {
        let facts: String
        switch self {
        case .unauthorized(let path): facts = "unauthorized(path: \(path))"
        case .clientError(let status, let detail): facts = "clientError(\(status) - \(detail))"
        case .internalServerError(let status, let detail): facts = "internalServerError(\(status) - \(detail))"
        case .redirectError(let status, let detail): facts = "redirectError(\(status) - \(detail))"
        case .couldNotParseHttpResponse(let path): facts = "couldNotParseHttpResponse(path: \(path))"
        }
        return SecretRedaction.redact("PortalRequestsError." + facts)
    }

    /// The same as `description`: a log line, not words for a person.
    public var errorDescription: String? { description }
}
