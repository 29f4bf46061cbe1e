import FoundationEssentials

/// Where a signed-in session is kept between runs (GNOME Keyring in the app and CLI, memory in
/// unit tests). It stores the secret text a core hands it and nothing else; the core owns the format.
public protocol PortalSessionStore: Sendable {
    /// The stored secret for this environment, or nil when nothing is stored.
    func load(authEnvironmentId: String) async throws -> String?
    /// Replaces the stored secret. Returns only once it is durably stored.
    func save(_ secret: String, authEnvironmentId: String) async throws
    /// Removes the stored secret; removing nothing is not an error.
    func delete(authEnvironmentId: String) async throws
    /// A save is likely soon: start whatever makes it faster (connecting to the keyring) in the
    /// background, while the caller waits on something else. Never fails; a save still checks everything.
    func prepareToSave()
    /// Makes sure a save can land before something that cannot be undone waits on it (spending a
    /// single-use grant): a locked keyring is unlocked now, through its own prompt, so a dismissed
    /// prompt costs nothing. Throws the `SessionStoreError` a save would.
    func unlockForSave() async throws
}

extension PortalSessionStore {
    /// Nothing to prepare.
    public func prepareToSave() {}
    /// Nothing to unlock.
    public func unlockForSave() async throws {}
}

/// A store could not do what was asked: which failure, as a fact. The app and the CLI turn it
/// into words (for example: unlock the login keyring). Never contains the secret.
public struct SessionStoreError: LocalizedError, Sendable, Equatable, CustomStringConvertible {
    /// Which failure it was.
    public enum Kind: String, Sendable {
        /// No Secret Service (or no session bus) is running.
        case noService
        /// The collection holding the item is locked.
        case locked
        /// The unlock prompt was dismissed.
        case dismissed
        /// There is no default collection to keep items in.
        case noCollection
        /// The write seemed to succeed but the item does not read back.
        case notKept
        /// The delete seemed to succeed but the item is still there.
        case notRemoved
        /// Anything else; `detail` has the library's words.
        case other
    }

    /// Which failure it was.
    public var kind: Kind
    /// The storage library's own words, for logs (never the secret).
    public var detail: String

    /// A failure of `kind`, with the storage library's `detail`.
    public init(_ kind: Kind, detail: String = "") {
        self.kind = kind
        self.detail = detail
    }

    /// `SessionStoreError.kind(detail)`, with anything shaped like a secret redacted.
    public var description: String {
        SecretRedaction.redact("SessionStoreError.\(kind.rawValue)\(detail.isEmpty ? "" : "(\(detail))")")
    }

    /// The same as `description`: a log line, not words for a person.
    public var errorDescription: String? { description }
}
