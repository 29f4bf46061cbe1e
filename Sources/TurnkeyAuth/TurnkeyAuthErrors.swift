import FoundationEssentials

// The ways a Turnkey sign-in can fail. Each carries facts (which field, provider, path, status,
// store failure); the app and the CLI each turn them into words in one table of their own.
// `description` (ErrorDescriptions.swift) is for logs and never holds a token, key or verifier.

/// The ways a Turnkey sign-in or session call fails on this side of the wire: a bad configuration
/// or argument, a callback that does not match, a missing session or key, a store failure.
public enum TurnkeyAuthError: Error, Sendable, Equatable {
    /// A configuration field is blank or not valid; `problem` names how (`blank`, `notHTTPS`…).
    case invalidConfiguration(field: String, problem: String)
    /// A call's argument is blank or not valid (`sessionKey`, `publicKey`, `clientId`, `additionalState`…).
    case invalidArgument(name: String)
    /// The provider is not among the enabled providers (configuration, else `wallet_kit_config`).
    case providerNotEnabled(TurnkeyProvider)
    /// No client ID for the provider in the call, the configuration or `wallet_kit_config`.
    case missingClientId(TurnkeyProvider)
    /// A callback for this app whose `state` matches no pending sign-in: never started here, already
    /// finished, or forged. Refused before anything was sent.
    case unknownState
    /// The pending sign-in is more than an hour old; it has been ended.
    case signInExpired(TurnkeyProvider)
    /// The provider ended the sign-in with `error=` (value bounded to 100 characters, redacted).
    case providerError(TurnkeyProvider, error: String)
    /// The callback lacks what this provider's flow needs (`id_token` or `code`).
    case callbackIncomplete(TurnkeyProvider, missing: String)
    /// Neither the OIDC token's `nonce` nor its `tknonce` is the nonce of the key it would be used
    /// with. Nothing was sent to the Auth Proxy.
    case nonceMismatch
    /// The OIDC token is not a JWT with readable claims (`detail` is a fixed sentence).
    case invalidOidcToken(detail: String)
    /// No private key is kept for this public key.
    case keyNotFound(publicKey: String)
    /// A session is already stored under this session key (as the SDK's `keyAlreadyExists`).
    case keyAlreadyExists(sessionKey: String)
    /// No session is stored under this session key (empty: no session is active).
    case sessionNotFound(sessionKey: String)
    /// The session's `exp` has passed; it has been ended.
    case sessionExpired(sessionKey: String)
    /// A success answer (or the session JWT in it) lacked something.
    case malformedResponse(path: String, missing: String)
    /// Turnkey issued a session for another public key than the one sent.
    case sessionKeyMismatch(path: String)
    /// The stamp-login activity ended in another status than completed.
    case activityFailed(status: String)
    /// The stamp-login activity was still not completed after polling.
    case activityNotCompleted(status: String)
    /// A store failed: which item, and which failure.
    case storageFailure(StoredItem, SessionStoreError)
    /// The crypto library refused an operation.
    case cryptoFailure(operation: String)
}

/// What a `storageFailure` was about.
public enum StoredItem: String, Sendable, Equatable {
    /// A session JWT (`TurnkeySessionStore`).
    case session
    /// A session's private key (`TurnkeyKeyStore`).
    case key
    /// A pending sign-in record (`TurnkeyPendingSignInStore`).
    case pendingSignIn
}

/// Failures the Auth Proxy or the API reported, with the path that answered. Turnkey's error body
/// (`{"code":…,"message":…}`) is kept as facts: its gRPC code and its message, redacted and bounded.
public enum TurnkeyRequestError: Error, Sendable, Equatable {
    /// 401: an unknown Auth Proxy config, a refused OIDC token, a stamp Turnkey could not verify or
    /// an expired session.
    case unauthorized(path: String, message: String)
    /// Another 4xx.
    case rejected(status: Int, path: String, code: Int?, message: String)
    /// 429: Turnkey refuses more requests for now; `retryAfterSeconds` when it said how long to wait.
    case rateLimited(path: String, retryAfterSeconds: Int?)
    /// 5xx.
    case serverError(status: Int, path: String, message: String)
    /// 1xx or 3xx.
    case unexpectedStatus(status: Int, path: String)
    /// A 2xx whose body is not JSON of the documented shape.
    case unreadableResponse(path: String)
}

/// Failures of the whole browser flow (`handleOAuth(for:…)`, `handleGoogleOAuth` and the others).
public enum TurnkeySignInError: String, Error, Sendable, Equatable {
    /// Cancelled before the sign-in finished.
    case closed
    /// No browser launcher, or the browser could not be opened.
    case unavailable
    /// Another browser sign-in of this instance is still running.
    case signInInProgress
}
