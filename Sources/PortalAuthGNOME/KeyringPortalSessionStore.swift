import AuthBase
import PortalAuth

/// `PortalSessionStore` in the Secret Service (GNOME Keyring): one item per auth environment and session
/// key, schema `io.github.portalauth.Session`, in the default collection ("login"). The save-then-
/// read-back and locked-collection rules are `VerifiedSecretItems`'.
public final class KeyringPortalSessionStore: PortalSessionStore, Sendable {
    /// The libsecret schema of the items (`xdg:schema`), as Passwords and Keys shows it.
    public static let schemaName = "io.github.portalauth.Session"
    /// The session key of an app that keeps one session per auth environment.
    public static let defaultSessionKey = "default"

    /// The name this store keeps its sessions under (`default`), to keep several apart.
    public let sessionKey: String
    private let items: VerifiedSecretItems

    /// A store for the sessions kept under `sessionKey` (`"default"` unless the app keeps several), in
    /// the keyring this process uses: the login keyring, or in a Flatpak sandbox the app's own.
    public convenience init(sessionKey: String = defaultSessionKey) {
        self.init(
            sessionKey: sessionKey,
            items: LibsecretItems.make(schemaName: Self.schemaName, attributeNames: ["auth-environment-id", "session-key"]))
    }

    /// A store on `items` (a fake in tests).
    package init(sessionKey: String = defaultSessionKey, items: any SecretItems) {
        self.sessionKey = sessionKey
        self.items = VerifiedSecretItems(items)
    }

    /// The name Passwords and Keys (Seahorse) shows for the item.
    public func label(authEnvironmentId: String) -> String {
        sessionKey == "default"
            ? "Portal Sign-In session (\(authEnvironmentId))"
            : "Portal Sign-In session (\(authEnvironmentId), \(sessionKey))"
    }

    /// The stored session of `authEnvironmentId`, or nil when there is none.
    /// - Throws: `SessionStoreError` (no Secret Service, the keyring locked and its prompt dismissed).
    public func load(authEnvironmentId: String) async throws -> String? {
        try await items.load(attributes(authEnvironmentId))
    }

    /// Connects to the Secret Service (and opens its encrypted session) while the caller waits for
    /// the network, instead of after.
    public func prepareToSave() { items.prepare() }

    /// Unlocks the keyring now, through its own prompt, when it is locked: before a single-use grant
    /// is spent.
    /// - Throws: `SessionStoreError` with `.dismissed` when the prompt was dismissed.
    public func unlockForSave() async throws { try await items.unlockForSave() }

    /// Stores `secret` for `authEnvironmentId`, replacing what was there, and reads it back.
    /// - Throws: `SessionStoreError` (`.notKept` when it does not read back).
    public func save(_ secret: String, authEnvironmentId: String) async throws {
        try await items.save(secret, label: label(authEnvironmentId: authEnvironmentId), attributes: attributes(authEnvironmentId))
    }

    /// Removes the session of `authEnvironmentId`; removing nothing is not an error.
    /// - Throws: `SessionStoreError` (`.notRemoved` when it is still there).
    public func delete(authEnvironmentId: String) async throws {
        try await items.delete(attributes(authEnvironmentId))
    }

    private func attributes(_ authEnvironmentId: String) -> [String: String] {
        ["auth-environment-id": authEnvironmentId, "session-key": sessionKey]
    }
}
