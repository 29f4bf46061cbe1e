/// Where Turnkey sessions are kept between runs, one per Auth Proxy config and session key. The
/// secret is the session JWT exactly as Turnkey issued it. Failures are `SessionStoreError`s.
public protocol TurnkeySessionStore: Sendable {
    /// The session JWT kept under this session key, or nil when there is none.
    func load(authProxyConfigId: String, sessionKey: String) async throws -> String?
    /// Creates or replaces; returns once the JWT is durably kept.
    func save(_ jwt: String, authProxyConfigId: String, sessionKey: String) async throws
    /// Removing nothing is not an error.
    func delete(authProxyConfigId: String, sessionKey: String) async throws
    /// The session keys that hold a session for this config.
    func sessionKeys(authProxyConfigId: String) async throws -> [String]
}

/// Where the P-256 session keys are kept: the private key (lower-case hex) under its compressed
/// public key (lower-case hex), as the SDK's Keychain fallback does. Failures are `SessionStoreError`s.
public protocol TurnkeyKeyStore: Sendable {
    /// The private key kept for this public key, or nil when there is none.
    func load(publicKey: String) async throws -> String?
    /// Creates or replaces; returns once the key is durably kept.
    func save(privateKey: String, publicKey: String) async throws
    /// Removing nothing is not an error.
    func delete(publicKey: String) async throws
}

/// The three stores a `TurnkeyAuth` keeps its state in.
public struct TurnkeyStores: Sendable {
    /// Where session JWTs are kept.
    public let sessions: any TurnkeySessionStore
    /// Where the sessions' private keys are kept.
    public let keys: any TurnkeyKeyStore
    /// Where pending sign-ins wait for their callbacks.
    public let pending: any TurnkeyPendingSignInStore

    /// The three stores, in memory for tests or in the keyring (`PortalAuthGNOME`).
    public init(sessions: any TurnkeySessionStore, keys: any TurnkeyKeyStore, pending: any TurnkeyPendingSignInStore) {
        self.sessions = sessions
        self.keys = keys
        self.pending = pending
    }
}
