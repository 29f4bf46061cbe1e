import AuthBase

/// Secret Service items with the checks every keyring store needs, whatever it keeps:
///
/// - a write counts only once the item reads back (a dismissed unlock prompt can look like success);
/// - an item behind a locked collection is reported as locked, never as "nothing stored";
/// - a delete counts only once nothing matching is left, and never touches a locked item.
public struct VerifiedSecretItems: Sendable {
    public let items: any SecretItems

    public init(_ items: any SecretItems) {
        self.items = items
    }

    /// Connects ahead of a save (see `SecretItems.prepare`).
    public func prepare() { items.prepare() }

    public func load(_ attributes: [String: String]) async throws -> String? {
        if let secret = try await items.lookup(attributes) { return secret }
        if try await items.search(attributes).contains(where: \.isLocked) { throw SessionStoreError(.locked) }
        return nil
    }

    public func save(_ secret: String, label: String, attributes: [String: String]) async throws {
        try await items.store(secret, label: label, attributes: attributes)
        guard try await items.lookup(attributes) != secret else { return }
        throw SessionStoreError(try await items.search(attributes).contains(where: \.isLocked) ? .locked : .notKept)
    }

    public func delete(_ attributes: [String: String]) async throws {
        // gnome-keyring lets a locked item be deleted, but not for good: it is back once the keyring
        // is unlocked. So a locked item is unlocked first (lookup asks the person for the keyring's
        // password) and stays untouched, reported as locked, when it cannot be.
        if try await items.search(attributes).contains(where: \.isLocked) {
            _ = try? await items.lookup(attributes)
            if try await items.search(attributes).contains(where: \.isLocked) { throw SessionStoreError(.locked) }
        }
        try await items.clear(attributes)
        // A locked collection can leave the item in place without an error.
        let left = try await items.search(attributes)
        if !left.isEmpty { throw SessionStoreError(left.contains(where: \.isLocked) ? .locked : .notRemoved) }
    }

    /// The values of `attribute` over the items matching `attributes`, locked or not, sorted.
    public func values(of attribute: String, where attributes: [String: String]) async throws -> [String] {
        Set(try await items.search(attributes).compactMap { $0.attributes[attribute] }).sorted()
    }
}
