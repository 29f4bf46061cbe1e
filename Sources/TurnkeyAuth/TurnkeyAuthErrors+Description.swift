import FoundationEssentials

// Errors describe themselves as facts for logs and bug reports, always through `SecretRedaction`.
// What a person reads is the app's and the CLI's business.

extension TurnkeyAuthError: LocalizedError, CustomStringConvertible {
    /// `TurnkeyAuthError.case(facts)`, with anything shaped like a secret redacted.
    public var description: String {
        let facts: String
        switch self {
        case .invalidConfiguration(let field, let problem): facts = "invalidConfiguration(field: \(field), problem: \(problem))"
        case .invalidArgument(let name): facts = "invalidArgument(name: \(name))"
        case .providerNotEnabled(let provider): facts = "providerNotEnabled(\(provider.rawValue))"
        case .missingClientId(let provider): facts = "missingClientId(\(provider.rawValue))"
        case .unknownState: facts = "unknownState"
        case .signInExpired(let provider): facts = "signInExpired(\(provider.rawValue))"
        case .providerError(let provider, let error): facts = "providerError(\(provider.rawValue), error: \(error))"
        case .callbackIncomplete(let provider, let missing): facts = "callbackIncomplete(\(provider.rawValue), missing: \(missing))"
        case .nonceMismatch: facts = "nonceMismatch"
        case .invalidOidcToken(let detail): facts = "invalidOidcToken(\(detail))"
        case .keyNotFound(let publicKey): facts = "keyNotFound(publicKey: \(publicKey))"
        case .keyAlreadyExists(let sessionKey): facts = "keyAlreadyExists(sessionKey: \(sessionKey))"
        case .sessionNotFound(let sessionKey): facts = "sessionNotFound(sessionKey: \(sessionKey))"
        case .sessionExpired(let sessionKey): facts = "sessionExpired(sessionKey: \(sessionKey))"
        case .malformedResponse(let path, let missing): facts = "malformedResponse(path: \(path), missing: \(missing))"
        case .sessionKeyMismatch(let path): facts = "sessionKeyMismatch(path: \(path))"
        case .activityFailed(let status): facts = "activityFailed(status: \(status))"
        case .activityNotCompleted(let status): facts = "activityNotCompleted(status: \(status))"
        case .storageFailure(let item, let failure): facts = "storageFailure(\(item.rawValue), \(failure))"
        case .cryptoFailure(let operation): facts = "cryptoFailure(\(operation))"
        }
        return SecretRedaction.redact("TurnkeyAuthError." + facts)
    }

    /// The same as `description`: a log line, not words for a person.
    public var errorDescription: String? { description }
}

extension TurnkeyRequestError: LocalizedError, CustomStringConvertible {
    /// `TurnkeyRequestError.case(status, path, message)`, with anything shaped like a secret redacted.
    public var description: String {
        let facts: String
        switch self {
        case .unauthorized(let path, let message): facts = "unauthorized(path: \(path), message: \(message))"
        case .rejected(let status, let path, let code, let message):
            facts = "rejected(\(status), path: \(path), code: \(code.map(String.init) ?? "nil"), message: \(message))"
        case .rateLimited(let path, let seconds):
            facts = "rateLimited(path: \(path), retryAfterSeconds: \(seconds.map(String.init) ?? "nil"))"
        case .serverError(let status, let path, let message): facts = "serverError(\(status), path: \(path), message: \(message))"
        case .unexpectedStatus(let status, let path): facts = "unexpectedStatus(\(status), path: \(path))"
        case .unreadableResponse(let path): facts = "unreadableResponse(path: \(path))"
        }
        return SecretRedaction.redact("TurnkeyRequestError." + facts)
    }

    /// The same as `description`: a log line, not words for a person.
    public var errorDescription: String? { description }
}

extension TurnkeySignInError: LocalizedError, CustomStringConvertible {
    /// `TurnkeySignInError.closed` and so on, for logs.
    public var description: String { "TurnkeySignInError.\(rawValue)" }
    /// The same as `description`: a log line, not words for a person.
    public var errorDescription: String? { description }
}
