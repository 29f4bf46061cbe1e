import AuthBase
import PortalAuth

/// `PortalSessionStore` in the Secret Service (GNOME Keyring): one item per auth environment and session
/// key, schema `io.github.portalauth.Session`, in the default collection ("login"). The save-then-
/// read-back and locked-collection rules are `VerifiedSecretItems`'.
public final class KeyringPortalSessionStore: PortalSessionStore, Sendable {
    public static let schemaName = "io.github.portalauth.Session"
    /// The session key of an app that keeps one session per auth environment.
    public static let defaultSessionKey = "default"

    public let sessionKey: String
    private let items: VerifiedSecretItems

    public init(
        sessionKey: String = defaultSessionKey,
        items: any SecretItems = LibsecretItems.make(
            schemaName: schemaName,
            attributeNames: ["auth-environment-id", "session-key"])
    ) {
        self.sessionKey = sessionKey
        self.items = VerifiedSecretItems(items)
    }

    /// The name Passwords and Keys (Seahorse) shows for the item.
    public func label(authEnvironmentId: String) -> String {
        sessionKey == "default"
            ? "Portal Sign-In session (\(authEnvironmentId))"
            : "Portal Sign-In session (\(authEnvironmentId), \(sessionKey))"
    }

    public func load(authEnvironmentId: String) async throws -> String? {
        try await items.load(attributes(authEnvironmentId))
    }

    /// Connects to the Secret Service (and opens its encrypted session) while the caller waits for
    /// the network, instead of after.
    public func prepareToSave() { items.prepare() }

    public func unlockForSave() async throws { try await items.unlockForSave() }

    public func save(_ secret: String, authEnvironmentId: String) async throws {
        try await items.save(secret, label: label(authEnvironmentId: authEnvironmentId), attributes: attributes(authEnvironmentId))
    }

    public func delete(authEnvironmentId: String) async throws {
        try await items.delete(attributes(authEnvironmentId))
    }

    private func attributes(_ authEnvironmentId: String) -> [String: String] {
        ["auth-environment-id": authEnvironmentId, "session-key": sessionKey]
    }
}
