import FoundationEssentials

/// What a provider's callback yielded when the caller asked to finish the sign-in itself
/// (`onOAuthSuccess`): the OIDC token, the provider name and the public key its nonce is bound to.
/// Pass them to `completeOAuth` within the hour. `description` leaves the token out.
public struct OAuthSuccess: Sendable, Equatable, CustomStringConvertible {
    public let oidcToken: String
    /// `google`, `apple`, `discord` or `twitter`.
    public let providerName: String
    public let publicKey: String

    public init(oidcToken: String, providerName: String, publicKey: String) {
        self.oidcToken = oidcToken
        self.providerName = providerName
        self.publicKey = publicKey
    }

    public var description: String {
        "OAuthSuccess(providerName: \(providerName), publicKey: \(publicKey), oidcToken: \(SecretRedaction.placeholder))"
    }
}

/// A finished sign-in: the stored session, and whether Turnkey found the user or made them.
public struct CompleteOAuthResult: Sendable, Equatable {
    public enum Action: String, Sendable, Equatable {
        case login
        case signup
    }

    public let session: TurnkeySession
    public let action: Action

    public init(session: TurnkeySession, action: Action) {
        self.session = session
        self.action = action
    }
}

/// How a callback ended.
public enum TurnkeyRedirectResult: Sendable, Equatable {
    /// Signed in; the session is already stored.
    case authenticated(CompleteOAuthResult)
    /// `onOAuthSuccess` was asked for: nothing is stored, the key waits for `completeOAuth`.
    case oidcToken(OAuthSuccess)
}

/// A sign-in started for a browser of the caller's choice. Everything here is public: the state,
/// nonce and PKCE challenge in the URL are meant to be seen; the verifier and key stay in the stores.
public struct TurnkeyLoginURL: Sendable, Equatable {
    public let authorizeUrl: URL
    public let provider: TurnkeyProvider
    /// The new key's compressed public key; the `id_token`'s nonce is bound to it.
    public let publicKey: String
    public let state: String
}

/// The sign-in methods and parent organization of the Auth Proxy config.
public struct TurnkeyProviders: Sendable, Equatable {
    public let enabledProviders: [TurnkeyProvider]
    public let organizationId: String?
}

/// `whoami`: who the session belongs to, as Turnkey sees it.
public struct TurnkeyWhoami: Sendable, Equatable {
    public let organizationId: String
    public let organizationName: String?
    public let userId: String
    public let username: String?
}

/// `get_user`: the session's user, with the providers its sign-ins come from.
public struct TurnkeyUser: Sendable, Equatable {
    public let userId: String
    public let userName: String?
    public let userEmail: String?
    /// The linked OAuth identities this app knows, in the order Turnkey lists them.
    public let providers: [TurnkeyProvider]
}

/// Time, injectable: `now` for expiry, `sleep` between polls of a pending activity.
public struct TurnkeyClock: Sendable {
    public var now: @Sendable () -> Date
    public var sleep: @Sendable (Duration) async throws -> Void

    public init(now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    public static let system = TurnkeyClock(now: { Date() }, sleep: { try await Task.sleep(for: $0) })
}
