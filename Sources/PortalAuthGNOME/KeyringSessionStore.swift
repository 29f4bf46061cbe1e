import CPortalShim
import Foundation
import PortalAuth

/// `SessionStore` in the Secret Service (GNOME Keyring) via libsecret: one item per auth environment
/// and session key, schema `io.github.portalauth.Session`, in the default collection ("login").
///
/// libsecret's calls block, so they run on a private serial queue, never on the GLib main loop's thread.
/// `save` returns only after reading the item back: a dismissed unlock prompt can look like success.
public final class KeyringSessionStore: SessionStore, @unchecked Sendable {
    public let sessionKey: String
    private let queue = DispatchQueue(label: "io.github.portalauth.keyring")

    public init(sessionKey: String = "default") {
        self.sessionKey = sessionKey
    }

    /// The name Passwords and Keys (Seahorse) shows for the item.
    public func label(authEnvironmentId: String) -> String {
        sessionKey == "default"
            ? "Portal Sign-In session (\(authEnvironmentId))"
            : "Portal Sign-In session (\(authEnvironmentId), \(sessionKey))"
    }

    public func load(authEnvironmentId: String) async throws -> String? {
        try await onQueue {
            var error: UnsafeMutablePointer<GError>?
            if let found = portal_shim_keyring_lookup(authEnvironmentId, self.sessionKey, &error) {
                defer { g_free(found) }
                return String(cString: found)
            }
            if let error { throw Self.storeError(error, action: "read") }
            // Nothing readable: an item behind a locked collection is not "no session".
            if self.hasLockedItem(authEnvironmentId: authEnvironmentId) { throw KeyringMessages.locked }
            return nil
        }
    }

    public func save(_ secret: String, authEnvironmentId: String) async throws {
        try await onQueue {
            var error: UnsafeMutablePointer<GError>?
            let stored = portal_shim_keyring_store(authEnvironmentId, self.sessionKey,
                                                   self.label(authEnvironmentId: authEnvironmentId), secret, &error)
            if let error { throw Self.storeError(error, action: "save") }
            // Verify: only a secret we can read back counts as saved.
            var readError: UnsafeMutablePointer<GError>?
            let readBack = portal_shim_keyring_lookup(authEnvironmentId, self.sessionKey, &readError)
            defer { if let readBack { g_free(readBack) } }
            if let readError { throw Self.storeError(readError, action: "save") }
            let matches = readBack.map { String(cString: $0) == secret } ?? false
            if stored == 0 || !matches {
                throw self.hasLockedItem(authEnvironmentId: authEnvironmentId)
                    ? KeyringMessages.locked : KeyringMessages.notKept
            }
        }
    }

    public func delete(authEnvironmentId: String) async throws {
        try await onQueue {
            var error: UnsafeMutablePointer<GError>?
            if portal_shim_keyring_clear(authEnvironmentId, self.sessionKey, &error) == 0, let error {
                throw Self.storeError(error, action: "remove")
            }
        }
    }

    private func hasLockedItem(authEnvironmentId: String) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let locked = portal_shim_keyring_has_locked_item(authEnvironmentId, sessionKey, &error) != 0
        if let error { g_error_free(error) }
        return locked
    }

    private func onQueue<T>(_ work: @escaping () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Frees the GError and says what to do next (never includes the secret).
    private static func storeError(_ error: UnsafeMutablePointer<GError>, action: String) -> SessionStoreError {
        defer { g_error_free(error) }
        switch portal_shim_keyring_error_kind(error) {
        case PORTAL_KEYRING_ERROR_NO_SERVICE: return KeyringMessages.noService
        case PORTAL_KEYRING_ERROR_LOCKED: return KeyringMessages.locked
        case PORTAL_KEYRING_ERROR_DISMISSED: return KeyringMessages.dismissed
        case PORTAL_KEYRING_ERROR_NO_COLLECTION: return KeyringMessages.noCollection
        default:
            let reason = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
            return SessionStoreError(message: "The keyring could not \(action) the session (\(reason)). "
                + "Check your keyring in Passwords and Keys (Seahorse) and try again.")
        }
    }
}

enum KeyringMessages {
    static let noService = SessionStoreError(message: "No keyring service is running. "
        + "Install and start gnome-keyring (or another Secret Service) and sign in again.")
    static let locked = SessionStoreError(message: "Your login keyring is locked. "
        + "Unlock it in Passwords and Keys (Seahorse) and try again.")
    static let dismissed = SessionStoreError(message: "The keyring unlock prompt was dismissed, so the keyring stayed locked. "
        + "Unlock your login keyring in Passwords and Keys (Seahorse) and try again.")
    static let noCollection = SessionStoreError(message: "There is no default keyring to keep the session in. "
        + "Create a login keyring in Passwords and Keys (Seahorse) and sign in again.")
    static let notKept = SessionStoreError(message: "The keyring did not keep the session. "
        + "Unlock your login keyring in Passwords and Keys (Seahorse) and try again.")
}
