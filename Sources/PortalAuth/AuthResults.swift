import FoundationEssentials

/// What an auth environment allows (`GET /api/v3/auth/methods`), as `getMethods()` returns it.
public struct AuthMethodsResult: Sendable, Equatable {
    /// The sign-in methods switched on for the environment; names this release does not know are left out.
    public let allowedAuthMethods: [AuthMethod]
    /// Whether Portal creates a wallet for a new end user on their first sign-in (false when Portal does not say).
    public let autoCreateWallet: Bool

    /// A result with these methods and wallet setting (for tests and fakes).
    public init(allowedAuthMethods: [AuthMethod], autoCreateWallet: Bool) {
        self.allowedAuthMethods = allowedAuthMethods
        self.autoCreateWallet = autoCreateWallet
    }
}

/// The earlier name of `AuthMethodsResult`.
@available(*, deprecated, renamed: "AuthMethodsResult")
public typealias AuthMethods = AuthMethodsResult

/// A provider's authorize URL, fresh for one sign-in (its `state` is single use).
public struct AuthorizeUrlResult: Sendable, Equatable {
    /// The provider's authorize URL, trimmed; open it in the user's browser.
    public let authorizeUrl: String

    /// A result for `authorizeUrl`, as given (for tests and fakes).
    public init(authorizeUrl: String) {
        self.authorizeUrl = authorizeUrl
    }
}

/// How a redirect (or a whole browser sign-in) ended.
public enum AuthResult: Sendable, CustomStringConvertible {
    /// Signed in; the session is already saved.
    case authenticated(AuthenticatedResult)
    /// A TOTP code is needed; nothing is saved yet. Finish with `verifyTotp`.
    case totpRequired(TotpRequiredResult)

    /// `authenticated(…)` or `totpRequired(…)`, with the result's own secret-free description.
    public var description: String {
        switch self {
        case .authenticated(let result): return "authenticated(\(result))"
        case .totpRequired(let step): return "totpRequired(\(step))"
        }
    }
}

/// A finished sign-in.
public struct AuthenticatedResult: Sendable, CustomStringConvertible {
    /// The signed-in session, already saved to the store; pass it to `Portal(credentials:)`.
    public let session: PortalSession
    /// The client Portal resolved for the end user.
    public let clientId: String?
    /// Whether the client is account-abstracted.
    public let isAccountAbstracted: Bool?

    /// A result for `session` (for tests and fakes); it saves nothing.
    public init(session: PortalSession, clientId: String?, isAccountAbstracted: Bool?) {
        self.session = session
        self.clientId = clientId
        self.isAccountAbstracted = isAccountAbstracted
    }

    /// The end user and client IDs; never the session token.
    public var description: String {
        "AuthenticatedResult(endUserId: \(session.endUserId), clientId: \(clientId ?? "nil"))"
    }
}

/// The TOTP step of a sign-in: the environment wants a two-factor code. Nothing is saved yet;
/// finish with `verifyTotp(_:userJwt:)`. `userJwt` is a short-lived secret: pass it back to
/// `verifyTotp` and never log it. `description` leaves it (and the enrolment link) out.
public struct TotpRequiredResult: Sendable, CustomStringConvertible {
    /// The short-lived token `verifyTotp(_:userJwt:)` needs; a wrong code does not use it up.
    public let userJwt: String
    /// `otpauth://…` enrolment link, present only until the user's first accepted code: show it as a
    /// QR code (`qrCodeImage(scale:)`) or its secret (`totpSecret`) for the authenticator app.
    public let totpLink: String?
    /// The end user the code is for.
    public let endUserId: String

    /// A TOTP step with these values (for tests and fakes).
    public init(userJwt: String, totpLink: String?, endUserId: String) {
        self.userJwt = userJwt
        self.totpLink = totpLink
        self.endUserId = endUserId
    }

    /// The end user and whether this is an enrolment; never `userJwt` or `totpLink`.
    public var description: String {
        "TotpRequiredResult(endUserId: \(endUserId), enrolling: \(totpLink != nil))"
    }
}
