import FoundationEssentials

/// A signed-in app's handle on Portal for one session: what `signInWith*`, `handleRedirect`,
/// `verifyTotp` and `restoreSession()` return goes to `Portal(credentials:)`, as in PortalSwift.
///
/// It reads the client Portal keeps for the session (`client`, `addresses`) and tells you when the
/// session ends (`onSessionInvalidated`): a 401 from Portal on a request made with it, or
/// `PortalSession.invalidate()`. Either ends the session for good, and the stored copy with it.
/// `clearSession()` is your own sign-out and notifies nobody.
///
/// PortalAuthGNOME adds `Portal(credentials:)`, which uses the libsoup transport.
public final class Portal: Sendable {
    /// The session this instance acts with: the one given to `init(credentials:)`.
    public let credentials: PortalSession
    private let connection: PortalClient

    /// A Portal for a session a `PortalAuth` returned, on the API host and auth environment it came
    /// from, over `transport`.
    ///
    /// - Throws: `PortalAuthError.invalidArgument(name: "credentials")` for a session made with
    ///   `PortalSession(clientSessionToken:endUserId:)`, which does not know its API host; use
    ///   `init(credentials:apiHost:authEnvironmentId:transport:)` for it.
    public convenience init(credentials: PortalSession, transport: any HTTPTransport) throws {
        guard let origin = credentials.origin else { throw PortalAuthError.invalidArgument(name: "credentials") }
        self.init(
            credentials: credentials,
            connection: PortalClient(
                session: credentials,
                api: PortalAPI(baseURL: origin.apiBaseURL, authEnvironmentId: origin.authEnvironmentId, transport: transport)))
    }

    /// A Portal for any session, on `apiHost` (`api.portalhq.io`; `http://` only for localhost and
    /// 127.0.0.1) and `authEnvironmentId`, over `transport`.
    ///
    /// - Throws: `PortalAuthError.invalidArgument(name:)` for a blank `authEnvironmentId` or a bad
    ///   `apiHost` (the rules of `PortalAuth`).
    public convenience init(
        credentials: PortalSession, apiHost: String, authEnvironmentId: String, transport: any HTTPTransport
    ) throws {
        self.init(
            credentials: credentials,
            connection: try PortalClient(
                session: credentials, apiHost: apiHost, authEnvironmentId: authEnvironmentId, transport: transport))
    }

    private init(credentials: PortalSession, connection: PortalClient) {
        self.credentials = credentials
        self.connection = connection
    }

    /// The signed-in client (`GET /api/v3/clients/me`): its custodian, environment, addresses and
    /// wallets.
    ///
    /// - Throws: `PortalCredentialError.sessionInvalidated` without a request once the session has
    ///   ended; `PortalRequestsError.unauthorized` when Portal no longer accepts it (which ends it and
    ///   calls the `onSessionInvalidated` handlers); other Portal and transport errors unchanged.
    public var client: ClientInfo? {
        get async throws { try await connection.getClient() }
    }

    /// The client's address in each namespace (`.eip155`, `.solana`…), read from `client`; a namespace
    /// without a wallet has none. Throws as `client` does.
    public var addresses: [PortalNamespace: String?] {
        get async throws {
            let namespaces = try await connection.getClient().metadata.namespaces
            var addresses: [PortalNamespace: String?] = [:]
            for namespace in PortalNamespace.allCases {
                addresses[namespace] = .some(namespaces[namespace]?.address)
            }
            return addresses
        }
    }

    /// Calls `handler` on the main actor, once, when the session ends: Portal answered a request made
    /// with it with 401, or `credentials.invalidate()` was called. Subscribing after the session
    /// ended calls it once right away. Never called for `clearSession()`. Keep the returned
    /// subscription to `cancel()` it (any number of times); dropping it keeps the handler.
    @discardableResult
    public func onSessionInvalidated(_ handler: @escaping @MainActor @Sendable () -> Void) -> InvalidationSubscription {
        connection.onSessionInvalidated {
            Task { @MainActor in handler() }
        }
    }

    /// Ends the session on purpose (your sign-out): `credentials` is invalidated, its stored copy
    /// deleted, and no `onSessionInvalidated` handler is called. Portal has no revoke endpoint; to
    /// also forget the replay memory, call `PortalAuth.clearPersistedSession()`.
    public func clearSession() {
        connection.clearSession()
    }
}
