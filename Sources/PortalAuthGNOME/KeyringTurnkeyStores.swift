import AuthBase
import TurnkeyAuth

// TurnkeyAuth's three stores in the Secret Service (GNOME Keyring), in the default collection, with
// `VerifiedSecretItems`' checks. Never plain files: the SDK falls back to UserDefaults, this does not.

/// Sessions: schema `io.github.portalauth.TurnkeySession`, attributes `auth-proxy-config-id` and
/// `session-key`; the secret is the session JWT.
public final class KeyringTurnkeySessionStore: TurnkeySessionStore, Sendable {
    /// The libsecret schema of the items (`xdg:schema`).
    public static let schemaName = "io.github.portalauth.TurnkeySession"
    private let items: VerifiedSecretItems

    /// The store in the keyring this process uses: the login keyring, or in a Flatpak sandbox the app's own.
    public convenience init() {
        self.init(items: LibsecretItems.make(schemaName: Self.schemaName, attributeNames: ["auth-proxy-config-id", "session-key"]))
    }

    /// A store on `items` (a fake in tests).
    package init(items: any SecretItems) {
        self.items = VerifiedSecretItems(items)
    }

    /// The name Passwords and Keys (Seahorse) shows for a session's item.
    public static func label(authProxyConfigId: String, sessionKey: String) -> String {
        "Portal Sign-In Turnkey session (\(authProxyConfigId), \(sessionKey))"
    }

    /// The session JWT stored under `sessionKey`, or nil when there is none.
    public func load(authProxyConfigId: String, sessionKey: String) async throws -> String? {
        try await items.load(Self.attributes(authProxyConfigId, sessionKey))
    }

    /// Stores the session JWT under `sessionKey`, replacing what was there, and reads it back.
    public func save(_ jwt: String, authProxyConfigId: String, sessionKey: String) async throws {
        try await items.save(
            jwt, label: Self.label(authProxyConfigId: authProxyConfigId, sessionKey: sessionKey),
            attributes: Self.attributes(authProxyConfigId, sessionKey))
    }

    /// Removes the session stored under `sessionKey`; removing nothing is not an error.
    public func delete(authProxyConfigId: String, sessionKey: String) async throws {
        try await items.delete(Self.attributes(authProxyConfigId, sessionKey))
    }

    /// The session keys that have a stored session for this Auth Proxy config.
    public func sessionKeys(authProxyConfigId: String) async throws -> [String] {
        try await items.values(of: "session-key", where: ["auth-proxy-config-id": authProxyConfigId])
    }

    private static func attributes(_ configId: String, _ sessionKey: String) -> [String: String] {
        ["auth-proxy-config-id": configId, "session-key": sessionKey]
    }
}

/// Keys: schema `io.github.portalauth.TurnkeyKey`, attribute `public-key` (compressed, hex); the
/// secret is the private key in hex, as the SDK's Keychain fallback keeps it.
public final class KeyringTurnkeyKeyStore: TurnkeyKeyStore, Sendable {
    /// The libsecret schema of the items (`xdg:schema`).
    public static let schemaName = "io.github.portalauth.TurnkeyKey"
    private let items: VerifiedSecretItems

    /// The store in the keyring this process uses: the login keyring, or in a Flatpak sandbox the app's own.
    public convenience init() {
        self.init(items: LibsecretItems.make(schemaName: Self.schemaName, attributeNames: ["public-key"]))
    }

    /// A store on `items` (a fake in tests).
    package init(items: any SecretItems) {
        self.items = VerifiedSecretItems(items)
    }

    /// The name Passwords and Keys (Seahorse) shows for a key's item.
    public static func label(publicKey: String) -> String {
        "Portal Sign-In Turnkey key (\(publicKey.prefix(10))…)"
    }

    /// The private key (hex) of `publicKey`, or nil when there is none.
    public func load(publicKey: String) async throws -> String? {
        try await items.load(["public-key": publicKey])
    }

    /// Stores the private key (hex) of `publicKey` and reads it back.
    public func save(privateKey: String, publicKey: String) async throws {
        try await items.save(privateKey, label: Self.label(publicKey: publicKey), attributes: ["public-key": publicKey])
    }

    /// Removes the key of `publicKey`; removing nothing is not an error.
    public func delete(publicKey: String) async throws {
        try await items.delete(["public-key": publicKey])
    }
}

/// Pending sign-ins: schema `io.github.portalauth.TurnkeyPending`, attributes `auth-proxy-config-id`
/// and `state`; the secret is the core's JSON record (provider, public key, PKCE verifier, client ID,
/// redirect URI, created-at). The private key is not in it: it waits in the key store.
public final class KeyringTurnkeyPendingSignInStore: TurnkeyPendingSignInStore, Sendable {
    /// The libsecret schema of the items (`xdg:schema`).
    public static let schemaName = "io.github.portalauth.TurnkeyPending"
    private let items: VerifiedSecretItems

    /// The store in the keyring this process uses: the login keyring, or in a Flatpak sandbox the app's own.
    public convenience init() {
        self.init(items: LibsecretItems.make(schemaName: Self.schemaName, attributeNames: ["auth-proxy-config-id", "state"]))
    }

    /// A store on `items` (a fake in tests).
    package init(items: any SecretItems) {
        self.items = VerifiedSecretItems(items)
    }

    /// The name Passwords and Keys (Seahorse) shows for a pending sign-in's item.
    public static let label = "Portal Sign-In pending Turnkey sign-in"

    /// The record of the sign-in whose OAuth `state` this is, or nil when there is none.
    public func load(authProxyConfigId: String, state: String) async throws -> String? {
        try await items.load(["auth-proxy-config-id": authProxyConfigId, "state": state])
    }

    /// Stores the record of the sign-in whose OAuth `state` this is, and reads it back.
    public func save(_ record: String, authProxyConfigId: String, state: String) async throws {
        try await items.save(record, label: Self.label, attributes: ["auth-proxy-config-id": authProxyConfigId, "state": state])
    }

    /// Removes the record of `state`; removing nothing is not an error.
    public func delete(authProxyConfigId: String, state: String) async throws {
        try await items.delete(["auth-proxy-config-id": authProxyConfigId, "state": state])
    }

    /// Every pending record of this Auth Proxy config, by OAuth `state`.
    public func all(authProxyConfigId: String) async throws -> [String: String] {
        var records: [String: String] = [:]
        for state in try await items.values(of: "state", where: ["auth-proxy-config-id": authProxyConfigId]) {
            records[state] = try await load(authProxyConfigId: authProxyConfigId, state: state)
        }
        return records
    }
}

extension TurnkeyStores {
    /// The three stores in GNOME Keyring (in a Flatpak sandbox, the app's own keyring file): what
    /// `TurnkeyAuthFactory.make` uses unless told otherwise.
    public static func keyring() -> TurnkeyStores {
        TurnkeyStores(sessions: KeyringTurnkeySessionStore(), keys: KeyringTurnkeyKeyStore(), pending: KeyringTurnkeyPendingSignInStore())
    }
}
