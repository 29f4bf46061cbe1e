import AuthBase

/// One Secret Service item as a search sees it, without unlocking anything.
public struct SecretItemSummary: Sendable, Equatable {
    public let attributes: [String: String]
    /// Its collection is locked, so its secret cannot be read now.
    public let isLocked: Bool

    public init(attributes: [String: String], isLocked: Bool) {
        self.attributes = attributes
        self.isLocked = isLocked
    }
}

/// The raw Secret Service calls for one schema, behind a small protocol so the stores' logic (save
/// and read back, locked collections) is tested without a daemon. Every failure is a
/// `SessionStoreError` saying which one it was.
public protocol SecretItems: Sendable {
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
}

extension SecretItems {
    public func prepare() {}
}
