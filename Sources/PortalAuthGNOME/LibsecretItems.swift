import AuthBase
import CAuthPlatform
import GLibSupport
import Synchronization

/// `SecretItems` on libsecret, called on GLib's main context (so the app's loop never blocks on
/// D-Bus), chosen once per process: outside a sandbox the Secret Service API
/// (`SecretServiceItems`, the default collection), inside a Flatpak sandbox libsecret's password API
/// (`SecretPortalItems`, the app's own keyring file opened with the Secret portal's key).
package enum LibsecretItems {
    /// Whether this process runs in a Flatpak sandbox (`/.flatpak-info`, the test libsecret itself makes).
    static let inSandbox = FlatpakSandbox.isInside

    /// Items of a schema of string attributes, on the backend this process uses.
    package static func make(schemaName: String, attributeNames: [String]) -> any SecretItems {
        let schema = LibsecretSchema(name: schemaName, attributeNames: attributeNames)
        return inSandbox ? SecretPortalItems(schema: schema) : SecretServiceItems(schema: schema)
    }
}

/// A libsecret schema of string attributes. `SECRET_SCHEMA_NONE` keeps the schema name in
/// `xdg:schema`, so lookups find only this schema's items.
final class LibsecretSchema: Sendable {
    private let name: String
    private let attributeNames: [String]
    private let made = Mutex<MainContextPointer<UnsafeMutablePointer<SecretSchema>>?>(nil)

    init(name: String, attributeNames: [String]) {
        self.name = name
        self.attributeNames = attributeNames
    }

    /// Made on the first keyring call, not with the store: making it opens libsecret (secret_api.h),
    /// which a command that never reads the keyring (`portal-auth methods`) should not load.
    var pointer: MainContextPointer<UnsafeMutablePointer<SecretSchema>> {
        made.withLock { made in
            if let made { return made }
            let types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, nil)
            for attribute in attributeNames {
                g_hash_table_insert(
                    types, g_strdup(attribute), UnsafeMutableRawPointer(bitPattern: Int(SECRET_SCHEMA_ATTRIBUTE_STRING)))
            }
            let schema = MainContextPointer(libsecret.secret_schema_newv(name, SECRET_SCHEMA_NONE, types)!)
            g_hash_table_unref(types)
            made = schema
            return schema
        }
    }

    deinit { made.withLock { made in made.map { libsecret.secret_schema_unref($0.pointer) } } }
}

/// Attributes as libsecret takes and gives them.
enum LibsecretAttributes {
    static func table(_ attributes: [String: String]) -> OpaquePointer {
        let table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)!
        for (name, value) in attributes { g_hash_table_insert(table, g_strdup(name), g_strdup(value)) }
        return table
    }

    static func dictionary(_ table: OpaquePointer?) -> [String: String] {
        guard let table else { return [:] }
        defer { g_hash_table_unref(table) }
        var result: [String: String] = [:]
        var iterator = GHashTableIter()
        g_hash_table_iter_init(&iterator, table)
        var key: gpointer?
        var value: gpointer?
        while g_hash_table_iter_next(&iterator, &key, &value) != 0 {
            guard let key, let value else { continue }
            result[String(cString: key.assumingMemoryBound(to: CChar.self))] = String(cString: value.assumingMemoryBound(to: CChar.self))
        }
        return result
    }
}

/// One call in flight, whatever its result type, as libsecret's callback sees it.
class CallInFlight {
    func complete(_ result: OpaquePointer) {}
}

/// libsecret's callback for every call: finishes the retained `CallInFlight` passed as user data.
private let finishCall: GAsyncReadyCallback = { _, result, userData in
    Unmanaged<CallInFlight>.fromOpaque(userData!).takeRetainedValue().complete(result!)
}

/// One call in flight: keeps its attribute table alive until libsecret calls back.
final class PendingCall<T: Sendable>: CallInFlight {
    let table: OpaquePointer
    let finish: @Sendable (OpaquePointer, inout UnsafeMutablePointer<GError>?) -> T
    let continuation: CheckedContinuation<T, any Error>

    init(
        table: OpaquePointer, finish: @escaping @Sendable (OpaquePointer, inout UnsafeMutablePointer<GError>?) -> T,
        continuation: CheckedContinuation<T, any Error>
    ) {
        self.table = table
        self.finish = finish
        self.continuation = continuation
    }

    deinit { g_hash_table_unref(table) }

    /// Runs on the main context: starts the call with a retained `PendingCall` as its user data.
    static func begin(
        attributes table: OpaquePointer, schema: MainContextPointer<UnsafeMutablePointer<SecretSchema>>,
        start: (UnsafePointer<SecretSchema>, OpaquePointer, GAsyncReadyCallback, UnsafeMutableRawPointer) -> Void,
        finish: @escaping @Sendable (OpaquePointer, inout UnsafeMutablePointer<GError>?) -> T,
        continuation: CheckedContinuation<T, any Error>
    ) {
        let pending: CallInFlight = PendingCall(table: table, finish: finish, continuation: continuation)
        start(UnsafePointer(schema.pointer), table, finishCall, Unmanaged.passRetained(pending).toOpaque())
    }

    override func complete(_ result: OpaquePointer) {
        var error: UnsafeMutablePointer<GError>?
        let value = finish(result, &error)
        if let failure = GLibError.take(&error) {
            let classified = KeyringErrors.classify(failure)
            continuation.resume(throwing: KeyringErrors.isLostSession(failure) ? LostSecretServiceSession(error: classified) : classified)
        } else {
            continuation.resume(returning: value)
        }
    }
}

/// Which store failure a libsecret or D-Bus error is: policy, so it lives in Swift.
enum KeyringErrors {
    static func classify(_ error: GLibError) -> SessionStoreError {
        let kind: SessionStoreError.Kind
        if error.domain == libsecret.secret_error_get_quark() {
            switch error.code {
            case SECRET_ERROR_IS_LOCKED: kind = .locked
            case SECRET_ERROR_NO_SUCH_OBJECT: kind = .noCollection
            default: kind = .other
            }
        } else if error.matches(g_io_error_quark(), G_IO_ERROR_CANCELLED) {
            kind = .dismissed // libsecret reports a dismissed prompt as a cancellation
        } else if error.domain == g_dbus_error_quark() {
            switch error.remoteName {
            case "org.freedesktop.Secret.Error.IsLocked": kind = .locked
            case "org.freedesktop.Secret.Error.NoSuchObject": kind = .noCollection
            default: kind = noServiceCodes.contains(GDBusError(rawValue: UInt32(bitPattern: error.code))) ? .noService : .other
            }
        } else {
            kind = .other
        }
        return SessionStoreError(kind, detail: error.message)
    }

    /// Whether the Secret Service lost the session the call went with (it restarted, or dropped the
    /// session) or refused to open it, so that a new connection and session may well succeed.
    /// libsecret strips the D-Bus error's name from most replies, leaving GIO's "remote error" and
    /// the service's words: gnome-keyring says "The session wrapping the secret does not exist",
    /// kwalletd5 "Can't find session …", and "Client package key size is invalid" when libsecret's
    /// Diffie-Hellman key happens to start with a zero byte (about one session in 256); where the
    /// name survives it is NoSession (or kwalletd5's UnknownObject).
    static func isLostSession(_ error: GLibError) -> Bool {
        if error.domain == g_dbus_error_quark() {
            return error.remoteName == "org.freedesktop.Secret.Error.NoSession"
                || (error.remoteName == "org.freedesktop.DBus.Error.UnknownObject" && error.message.contains("session"))
        }
        let words = error.message.lowercased()
        return error.matches(g_io_error_quark(), G_IO_ERROR_DBUS_ERROR) && (words.contains("session") || words.contains("package key size"))
    }

    private static let noServiceCodes: [GDBusError] = [
        G_DBUS_ERROR_SERVICE_UNKNOWN, G_DBUS_ERROR_NAME_HAS_NO_OWNER, G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND,
        G_DBUS_ERROR_SPAWN_SERVICE_INVALID, G_DBUS_ERROR_SPAWN_EXEC_FAILED, G_DBUS_ERROR_SPAWN_CHILD_EXITED,
        G_DBUS_ERROR_SPAWN_FAILED, G_DBUS_ERROR_NO_SERVER, G_DBUS_ERROR_FILE_NOT_FOUND
    ]
}

/// A call failed because the Secret Service lost its session; `error` is how it is reported when a
/// new session does not help either.
struct LostSecretServiceSession: Error {
    let error: SessionStoreError
}
