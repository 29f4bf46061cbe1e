import AuthBase

/// One Secret Service item as a search sees it, without unlocking anything.
package struct SecretItemSummary: Sendable, Equatable {
    package let attributes: [String: String]
    /// Its collection is locked, so its secret cannot be read now.
    package let isLocked: Bool

    package init(attributes: [String: String], isLocked: Bool) {
        self.attributes = attributes
        self.isLocked = isLocked
    }
}

/// Whether the default collection is locked, as the service answers now, and whether it still lists
/// its items while locked: gnome-keyring does (a search tells a locked item from none); KeePassXC
/// lists none, and raises its unlock dialog on every service-wide search.
package enum CollectionLock: Sendable, Equatable {
    case unlocked
    case locked(listsItems: Bool)
}

/// The raw Secret Service calls for one schema, behind a small protocol so the stores' logic (save
/// and read back, locked collections) is tested without a daemon. Every failure is a
/// `SessionStoreError` saying which one it was.
package protocol SecretItems: Sendable {
    /// The secret of the item matching `attributes`, or nil when there is none (or it cannot be read).
    func lookup(_ attributes: [String: String]) async throws -> String?
    /// Creates or replaces the item matching `attributes`, in the default collection.
    func store(_ secret: String, label: String, attributes: [String: String]) async throws
    /// Removes every item matching `attributes`; removing nothing is not an error.
    func clear(_ attributes: [String: String]) async throws
    /// The items matching `attributes` (all of them for `[:]`), locked or not.
    func search(_ attributes: [String: String]) async throws -> [SecretItemSummary]
    /// Starts connecting in the background, so that the next call finds the connection ready.
    func prepare()
    /// The default collection's lock, asked without raising a prompt. No default collection counts
    /// as unlocked (the store then says what is missing).
    func defaultCollectionLock() async throws -> CollectionLock
    /// Unlocks the default collection through the service's own prompt: false when it stayed locked
    /// (the prompt was dismissed).
    func unlockDefaultCollection() async throws -> Bool
}

extension SecretItems {
    package func prepare() {}
    package func defaultCollectionLock() async throws -> CollectionLock { .unlocked }
    package func unlockDefaultCollection() async throws -> Bool { true }
}
