import FoundationEssentials

/// What a provider's callback yielded when the caller asked to finish the sign-in itself
/// (`onOAuthSuccess`): the OIDC token, the provider name and the public key its nonce is bound to.
/// Pass them to `completeOAuth` within the hour. `description` leaves the token out.
public struct OAuthSuccess: Sendable, Equatable, CustomStringConvertible {
    /// The provider's OIDC token (for Discord and X, the one the Auth Proxy issued); a secret.
    public let oidcToken: String
    /// `google`, `apple`, `discord` or `twitter`.
    public let providerName: String
    /// The compressed public key (hex) of the waiting key the token's nonce is bound to.
    public let publicKey: String

    /// A result with these values (for tests and fakes; a callback makes the real one).
    public init(oidcToken: String, providerName: String, publicKey: String) {
        self.oidcToken = oidcToken
        self.providerName = providerName
        self.publicKey = publicKey
    }

    /// The provider name and public key; the token is shown as `[redacted]`.
    public var description: String {
        "OAuthSuccess(providerName: \(providerName), publicKey: \(publicKey), oidcToken: \(SecretRedaction.placeholder))"
    }
}

/// A finished sign-in: the stored session, and whether Turnkey found the user or made them.
public struct CompleteOAuthResult: Sendable, Equatable {
    /// Whether the sign-in found an existing sub-organization or created one.
    public enum Action: String, Sendable, Equatable {
        /// The OIDC token's account already had a sub-organization: the user logged in to it.
        case login
        /// No sub-organization had the account: one was created (`signup`), then logged in to.
        case signup
    }

    /// The new session, already stored under its session key.
    public let session: TurnkeySession
    /// Whether Turnkey found the user (`login`) or made them (`signup`).
    public let action: Action

    /// A result with these values (for tests and fakes).
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
    /// The page to open in the browser: Turnkey's origin page (Google, Apple) or the provider's
    /// authorize endpoint (Discord, X).
    public let authorizeUrl: URL
    /// The provider the sign-in is with.
    public let provider: TurnkeyProvider
    /// The new key's compressed public key; the `id_token`'s nonce is bound to it.
    public let publicKey: String
    /// The sign-in's unguessable `state`, which its callback must carry back.
    public let state: String
}

/// The sign-in methods and parent organization of the Auth Proxy config.
public struct TurnkeyProviders: Sendable, Equatable {
    /// The providers this app may sign in with (names this release does not know are left out).
    public let enabledProviders: [TurnkeyProvider]
    /// The parent organization sub-organizations are made under, when known.
    public let organizationId: String?
}

/// `whoami`: who the session belongs to, as Turnkey sees it.
public struct TurnkeyWhoami: Sendable, Equatable {
    /// The session's organization: the user's sub-organization.
    public let organizationId: String
    /// The organization's name, when Turnkey gives it.
    public let organizationName: String?
    /// The session's user.
    public let userId: String
    /// The user's name, when Turnkey gives it.
    public let username: String?
}

/// `get_user`: the session's user, with the providers its sign-ins come from.
public struct TurnkeyUser: Sendable, Equatable {
    /// Turnkey's ID of the user.
    public let userId: String
    /// The user's name, when set.
    public let userName: String?
    /// The user's email address, when set.
    public let userEmail: String?
    /// The linked OAuth identities this app knows, in the order Turnkey lists them.
    public let providers: [TurnkeyProvider]
}

/// Time, injectable: `now` for expiry, `sleep` between polls of a pending activity.
public struct TurnkeyClock: Sendable {
    /// The current time, for session and pending sign-in expiry and request timestamps.
    public var now: @Sendable () -> Date
    /// Waits between polls of a pending stamp-login activity; throws when cancelled.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// A clock with this time and this wait (a test's fixed clock, say).
    public init(now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The system's clock and `Task.sleep`.
    public static let system = TurnkeyClock(now: { Date() }, sleep: { try await Task.sleep(for: $0) })
}
