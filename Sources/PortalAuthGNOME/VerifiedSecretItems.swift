import AuthBase

/// Secret Service items with the checks every keyring store needs, whatever it keeps:
///
/// - a write counts only once the item reads back (a dismissed unlock prompt can look like success);
/// - an item behind a locked collection is reported as locked, never as "nothing stored";
/// - a delete counts only once nothing matching is left, and never touches (or prompts for) a locked item;
/// - a locked collection is unlocked through the service's own prompt before a write, and before a
///   read or listing when it hides its items while locked; a dismissed prompt is `.dismissed`.
package struct VerifiedSecretItems: Sendable {
    package let items: any SecretItems

    package init(_ items: any SecretItems) {
        self.items = items
    }

    /// Connects ahead of a save (see `SecretItems.prepare`).
    package func prepare() { items.prepare() }

    package func load(_ attributes: [String: String]) async throws -> String? {
        try await unlockIfHidingItems()
        if let secret = try await items.lookup(attributes) { return secret }
        if try await items.search(attributes).contains(where: \.isLocked) { throw SessionStoreError(.locked) }
        return nil
    }

    package func save(_ secret: String, label: String, attributes: [String: String]) async throws {
        try await unlockForSave()
        try await items.store(secret, label: label, attributes: attributes)
        guard try await items.lookup(attributes) != secret else { return }
        throw SessionStoreError(try await items.search(attributes).contains(where: \.isLocked) ? .locked : .notKept)
    }

    package func delete(_ attributes: [String: String]) async throws {
        // A locked item is left alone and reported, without a prompt: libsecret's clear would ask to
        // unlock, and gnome-keyring may then unlock the login keyring by itself with the login
        // password even after the person dismissed the prompt, so whether a sign-out deleted
        // anything would depend on a race. The person unlocks the keyring and signs out again.
        // A collection that hides its items while locked may hold it: no search (it would prompt).
        if try await items.defaultCollectionLock() == .locked(listsItems: false) { throw SessionStoreError(.locked) }
        if try await items.search(attributes).contains(where: \.isLocked) { throw SessionStoreError(.locked) }
        try await items.clear(attributes)
        // A locked collection can leave the item in place without an error.
        let left = try await items.search(attributes)
        if !left.isEmpty { throw SessionStoreError(left.contains(where: \.isLocked) ? .locked : .notRemoved) }
    }

    /// The values of `attribute` over the items matching `attributes`, locked or not, sorted.
    package func values(of attribute: String, where attributes: [String: String]) async throws -> [String] {
        try await unlockIfHidingItems()
        return Set(try await items.search(attributes).compactMap { $0.attributes[attribute] }).sorted()
    }

    /// Before something that cannot be undone waits on a save (spending a single-use grant), and
    /// before every save: a locked default collection is unlocked now, through the service's own
    /// prompt, rather than by the write (KeePassXC's create-item prompt, dismissed, reads as
    /// success). Dismissed, nothing is written.
    package func unlockForSave() async throws {
        if case .locked = try await items.defaultCollectionLock() { try await unlock() }
    }

    /// A collection that hides its items while locked cannot say whether it holds the item, and
    /// searching it raises a prompt each time: it is unlocked once, on purpose, first. One that
    /// lists them (gnome-keyring) is left to the lookup, which prompts only for a matching item.
    private func unlockIfHidingItems() async throws {
        if try await items.defaultCollectionLock() == .locked(listsItems: false) { try await unlock() }
    }

    private func unlock() async throws {
        guard try await items.unlockDefaultCollection() else { throw SessionStoreError(.dismissed) }
    }
}
