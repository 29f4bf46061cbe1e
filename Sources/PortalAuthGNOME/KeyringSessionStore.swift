import AuthBase
import PortalAuth

/// `SessionStore` in the Secret Service (GNOME Keyring): one item per auth environment and session
/// key, schema `io.github.portalauth.Session`, in the default collection ("login").
///
/// A save counts only once the item reads back: a dismissed unlock prompt can look like success.
/// An item behind a locked collection is reported as locked, never as "no session".
public final class KeyringSessionStore: SessionStore, Sendable {
    public static let schemaName = "io.github.portalauth.Session"

    public let sessionKey: String
    private let items: any SecretItems

    public init(sessionKey: String = "default",
                items: any SecretItems = LibsecretItems(schemaName: schemaName,
                                                        attributeNames: ["auth-environment-id", "session-key"])) {
        self.sessionKey = sessionKey
        self.items = items
    }

    /// The name Passwords and Keys (Seahorse) shows for the item.
    public func label(authEnvironmentId: String) -> String {
        sessionKey == "default"
            ? "Portal Sign-In session (\(authEnvironmentId))"
            : "Portal Sign-In session (\(authEnvironmentId), \(sessionKey))"
    }

    public func load(authEnvironmentId: String) async throws -> String? {
        let attributes = self.attributes(authEnvironmentId)
        if let secret = try await items.lookup(attributes) { return secret }
        if try await items.search(attributes).contains(where: \.isLocked) { throw SessionStoreError(.locked) }
        return nil
    }

    public func save(_ secret: String, authEnvironmentId: String) async throws {
        let attributes = self.attributes(authEnvironmentId)
        try await items.store(secret, label: label(authEnvironmentId: authEnvironmentId), attributes: attributes)
        guard try await items.lookup(attributes) != secret else { return }
        throw SessionStoreError(try await items.search(attributes).contains(where: \.isLocked) ? .locked : .notKept)
    }

    public func delete(authEnvironmentId: String) async throws {
        let attributes = self.attributes(authEnvironmentId)
        try await items.clear(attributes)
        // A locked collection can leave the item in place without an error: only report success
        // once nothing matching is left.
        let left = try await items.search(attributes)
        if !left.isEmpty { throw SessionStoreError(left.contains(where: \.isLocked) ? .locked : .notRemoved) }
    }

    private func attributes(_ authEnvironmentId: String) -> [String: String] {
        ["auth-environment-id": authEnvironmentId, "session-key": sessionKey]
    }
}
