import Foundation

// Every error says what happened and what to do next, exposes `caseName` for the CLI, and
// passes its text through `SecretRedaction` so no grant, token or JWT can reach a person.

extension PortalAuthError: LocalizedError, CustomStringConvertible {
    public var caseName: String {
        switch self {
        case .invalidArgument: return "invalidArgument"
        case .magicLinkNotConfigured: return "magicLinkNotConfigured"
        case .authMethodUnavailable: return "authMethodUnavailable"
        case .authenticationFailed: return "authenticationFailed"
        case .malformedResponse: return "malformedResponse"
        case .invalidGrantResponse: return "invalidGrantResponse"
        case .invalidUserJwt: return "invalidUserJwt"
        case .sessionStorageFailure: return "sessionStorageFailure"
        case .accountAbstractionUnavailable: return "accountAbstractionUnavailable"
        case .rateLimited: return "rateLimited"
        case .totpQrUnavailable: return "totpQrUnavailable"
        }
    }

    public var errorDescription: String? {
        SecretRedaction.redact(message)
    }

    public var description: String {
        errorDescription ?? caseName
    }

    private var message: String {
        switch self {
        case .invalidArgument(let name):
            return "The \(name) value is empty or not valid. Check the \(name) setting and try again."
        case .magicLinkNotConfigured:
            return "Sign-in links by email are not set up for this app. Configure a sender address and template (MagicLinkConfig), or sign in another way."
        case .authMethodUnavailable(let method):
            return "\(method.displayName) sign-in is not enabled for this auth environment. Choose another sign-in method, or enable it in the Portal dashboard."
        case .authenticationFailed(let error):
            return "The sign-in did not complete (\(error)). Start the sign-in again."
        case .malformedResponse(let path, let missing):
            return "Portal's answer from \(path) had no \(missing). Try again later; if it keeps happening, check the API host setting."
        case .invalidGrantResponse:
            return "Portal accepted the sign-in but returned neither a session nor a two-factor step. Start a new sign-in."
        case .invalidUserJwt(let detail):
            return "The two-factor step could not be read: \(sentence(detail)) Start a new sign-in."
        case .sessionStorageFailure(let message):
            return "The session could not be stored: \(sentence(message)) Fix the session storage (for example, unlock the login keyring) and try again."
        case .accountAbstractionUnavailable(let message):
            return "Account abstraction is not available for this auth environment (\(message)). Turn off account abstraction or enable it in the Portal dashboard."
        case .rateLimited:
            return "Too many sign-in emails were requested. Wait a minute before asking for another link."
        case .totpQrUnavailable:
            return "The two-factor QR code could not be made. Type the secret key into your authenticator app instead."
        }
    }
}

extension PortalAuthSignInError: LocalizedError, CustomStringConvertible {
    public var caseName: String {
        switch self {
        case .closed: return "closed"
        case .unavailable: return "unavailable"
        case .signInInProgress: return "signInInProgress"
        case .callbackIncomplete: return "callbackIncomplete"
        }
    }

    public var errorDescription: String? {
        switch self {
        case .closed:
            return "The sign-in was cancelled before it finished. Start it again when you are ready."
        case .unavailable:
            return "The browser sign-in cannot start: it needs a web browser and a redirect URL with the app's own scheme. Check both, or copy the sign-in link into a browser yourself."
        case .signInInProgress:
            return "A sign-in is already running. Finish or cancel it first."
        case .callbackIncomplete:
            return "The browser came back without a sign-in result for this app. Start the sign-in again."
        }
    }

    public var description: String {
        errorDescription ?? caseName
    }
}

extension PortalCredentialError: LocalizedError, CustomStringConvertible {
    public var caseName: String {
        switch self {
        case .unavailable: return "unavailable"
        case .providerFailure: return "providerFailure"
        case .sessionInvalidated: return "sessionInvalidated"
        case .invalidApiKey: return "invalidApiKey"
        }
    }

    public var errorDescription: String? {
        switch self {
        case .unavailable:
            return "No session is available. Sign in first."
        case .providerFailure:
            return "The session could not be provided. Sign in again."
        case .sessionInvalidated:
            return "This session has ended. Sign in again."
        case .invalidApiKey:
            return "The credential is not valid. Sign in again."
        }
    }

    public var description: String {
        errorDescription ?? caseName
    }

    /// True when only a new sign-in can fix this.
    public var requiresReauthentication: Bool {
        self == .sessionInvalidated || self == .invalidApiKey
    }
}

extension PortalRequestsError: LocalizedError, CustomStringConvertible {
    public var caseName: String {
        switch self {
        case .unauthorized: return "unauthorized"
        case .clientError: return "clientError"
        case .internalServerError: return "internalServerError"
        case .redirectError: return "redirectError"
        case .couldNotParseHttpResponse: return "couldNotParseHttpResponse"
        }
    }

    public var errorDescription: String? {
        let text: String
        switch self {
        case .unauthorized:
            text = "Portal refused the request (401): the sign-in link may have expired or been used already, the session may have ended, or the auth environment ID or redirect URL is not allowed. Sign in again; if it keeps failing, check those settings."
        case .clientError(let detail):
            text = "Portal rejected the request (\(detail)). Check the input and try again."
        case .internalServerError(let detail):
            text = "Portal had a server error (\(detail)). Try again in a moment."
        case .redirectError(let detail):
            text = "Portal answered with an unexpected redirect (\(detail)). Check the API host setting."
        case .couldNotParseHttpResponse:
            text = "Portal's answer could not be read. Check the API host setting and try again."
        }
        return SecretRedaction.redact(text)
    }

    public var description: String {
        errorDescription ?? caseName
    }
}

extension TransportError: LocalizedError {
    public var caseName: String { kind.rawValue }

    public var errorDescription: String? {
        SecretRedaction.redact("\(description). Check the network connection and the API host setting, then try again.")
    }
}

extension SessionStoreError: LocalizedError {
    public var caseName: String { "sessionStoreError" }

    public var errorDescription: String? {
        SecretRedaction.redact(message)
    }
}

/// `text` ending in a full stop, so a message from elsewhere reads as a sentence.
private func sentence(_ text: String) -> String {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let last = trimmed.last else { return "(no details)." }
    return ".!?".contains(last) ? trimmed : trimmed + "."
}

extension AuthMethod {
    /// The name a person knows the method by.
    public var displayName: String {
        switch self {
        case .emailMagicLink: return "Email link"
        case .google: return "Google"
        case .apple: return "Apple"
        }
    }
}
