import FoundationEssentials

/// What an auth environment allows (`GET /api/v3/auth/methods`).
public struct AuthMethods: Sendable, Equatable {
    public let allowedAuthMethods: [AuthMethod]
    public let autoCreateWallet: Bool

    public init(allowedAuthMethods: [AuthMethod], autoCreateWallet: Bool) {
        self.allowedAuthMethods = allowedAuthMethods
        self.autoCreateWallet = autoCreateWallet
    }
}

/// A provider's authorize URL, fresh for one sign-in (its `state` is single use).
public struct AuthorizeUrlResult: Sendable, Equatable {
    public let authorizeUrl: String

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

    public var description: String {
        switch self {
        case .authenticated(let result): return "authenticated(\(result))"
        case .totpRequired(let step): return "totpRequired(\(step))"
        }
    }
}

/// A finished sign-in.
public struct AuthenticatedResult: Sendable, CustomStringConvertible {
    public let session: PortalSession
    public let clientId: String?
    public let isAccountAbstracted: Bool?

    public init(session: PortalSession, clientId: String?, isAccountAbstracted: Bool?) {
        self.session = session
        self.clientId = clientId
        self.isAccountAbstracted = isAccountAbstracted
    }

    public var description: String {
        "AuthenticatedResult(endUserId: \(session.endUserId), clientId: \(clientId ?? "nil"))"
    }
}

/// The TOTP step of a sign-in. `userJwt` is a short-lived secret: pass it back to `verifyTotp`
/// and never log it. `description` leaves it (and the enrolment link) out.
public struct TotpRequiredResult: Sendable, CustomStringConvertible {
    public let userJwt: String
    /// `otpauth://…` enrolment link, present only until the user's first accepted code.
    public let totpLink: String?
    public let endUserId: String

    public init(userJwt: String, totpLink: String?, endUserId: String) {
        self.userJwt = userJwt
        self.totpLink = totpLink
        self.endUserId = endUserId
    }

    /// The base32 `secret=` of `totpLink`, for people who type it into their authenticator app.
    public var totpSecret: String? {
        guard let link = totpLink else { return nil }
        let secret = RedirectURL.queryParameters(of: link)["secret"]?
            .trimmed
        return secret?.isEmpty == false ? secret : nil
    }

    public var description: String {
        "TotpRequiredResult(endUserId: \(endUserId), enrolling: \(totpLink != nil))"
    }
}
