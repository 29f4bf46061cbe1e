import AuthBase

/// Secret Service items with the checks every keyring store needs, whatever it keeps:
///
/// - a write counts only once the item reads back (a dismissed unlock prompt can look like success);
/// - an item behind a locked collection is reported as locked, never as "nothing stored";
/// - a delete counts only once nothing matching is left, and never touches (or prompts for) a locked item.
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
        // A locked item is left alone and reported, without a prompt: libsecret's clear would ask to
        // unlock, and gnome-keyring may then unlock the login keyring by itself with the login
        // password even after the person dismissed the prompt, so whether a sign-out deleted
        // anything would depend on a race. The person unlocks the keyring and signs out again.
        if try await items.search(attributes).contains(where: \.isLocked) { throw SessionStoreError(.locked) }
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
