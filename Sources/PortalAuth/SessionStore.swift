import Foundation

/// Where a signed-in session is kept between runs (GNOME Keyring in the app and CLI,
/// memory in unit tests). It stores the secret text the core hands it and nothing else;
/// the core owns the format (`{"clientSessionToken":…,"endUserId":…}`, keys sorted).
public protocol SessionStore: Sendable {
    /// The stored secret for this environment, or nil when nothing is stored.
    func load(authEnvironmentId: String) async throws -> String?
    /// Replaces the stored secret. Returns only once it is durably stored.
    func save(_ secret: String, authEnvironmentId: String) async throws
    /// Removes the stored secret; removing nothing is not an error.
    func delete(authEnvironmentId: String) async throws
}

/// A store could not do what was asked. `message` tells a person what to do next
/// (for example: unlock the login keyring) and never contains the secret.
public struct SessionStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}
