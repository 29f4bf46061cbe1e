import AuthBase
import CAuthPlatform
import GLibSupport

/// `SecretItems` on libsecret's asynchronous API, called on GLib's main context (so the app's loop
/// never blocks on D-Bus). Items go to the default collection ("login").
///
/// In a Flatpak sandbox (`/.flatpak-info`, the test libsecret itself makes) items go through
/// libsecret's password API instead, which keeps them in the app's own keyring file
/// (`$XDG_DATA_HOME/keyrings/default.keyring`, under `~/.var/app/ID/`) with a key from the Secret
/// portal: the Secret Service calls would reach the host's login keyring, which the sandbox is not
/// given (no `--talk-name=org.freedesktop.secrets`) and should not be.
public final class LibsecretItems: SecretItems, Sendable {
    /// Whether this process runs in a Flatpak sandbox, where the password API is the one to use.
    static let inSandbox = FlatpakSandbox.isInside

    public let schemaName: String
    private let schema: MainContextPointer<UnsafeMutablePointer<SecretSchema>>
    private let connection = SecretServiceConnection()

    /// A schema of string attributes. `SECRET_SCHEMA_NONE` keeps the schema name in `xdg:schema`,
    /// so lookups find only this schema's items.
    public init(schemaName: String, attributeNames: [String]) {
        self.schemaName = schemaName
        let types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, nil)
        for name in attributeNames {
            g_hash_table_insert(types, g_strdup(name), UnsafeMutableRawPointer(bitPattern: Int(SECRET_SCHEMA_ATTRIBUTE_STRING.rawValue)))
        }
        schema = MainContextPointer(secret_schema_newv(schemaName, SECRET_SCHEMA_NONE, types))
        g_hash_table_unref(types)
    }

    deinit {
        secret_schema_unref(schema.pointer)
        let connection = self.connection
        MainLoopBridge.invoke { connection.close() }
    }

    public func lookup(_ attributes: [String: String]) async throws -> String? {
        if Self.inSandbox {
            return try await passwordCall(attributes) { schema, table, callback, box in
                secret_password_lookupv(schema, table, nil, callback, box)
            } finish: { result, error in
                guard let text = secret_password_lookup_finish(result, &error) else { return nil }
                defer { secret_password_free(text) }
                return String(cString: text)
            }
        }
        return try await call(attributes) { service, schema, table, callback, box in
            secret_service_lookup(service, schema, table, nil, callback, box)
        } finish: { service, result, error in
            guard let value = secret_service_lookup_finish(service, result, &error) else { return nil }
            defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
            return secret_value_get_text(value).map { String(cString: $0) }
        }
    }

    public func store(_ secret: String, label: String, attributes: [String: String]) async throws {
        if Self.inSandbox {
            let stored: Bool = try await passwordCall(attributes) { schema, table, callback, box in
                secret_password_storev(schema, table, SECRET_COLLECTION_DEFAULT, label, secret, nil, callback, box)
            } finish: { result, error in
                secret_password_store_finish(result, &error) != 0
            }
            if !stored { throw SessionStoreError(.notKept) }
            return
        }
        let value = MainContextPointer(secret_value_new(secret, -1, "text/plain")!)
        defer { secret_value_unref(UnsafeMutableRawPointer(value.pointer)) }
        let stored: Bool = try await call(attributes) { service, schema, table, callback, box in
            secret_service_store(service, schema, table, SECRET_COLLECTION_DEFAULT, label, value.pointer, nil, callback, box)
        } finish: { service, result, error in
            secret_service_store_finish(service, result, &error) != 0
        }
        if !stored { throw SessionStoreError(.notKept) }
    }

    public func clear(_ attributes: [String: String]) async throws {
        // FALSE without an error means nothing matched, which is fine.
        if Self.inSandbox {
            let _: Bool = try await passwordCall(attributes) { schema, table, callback, box in
                secret_password_clearv(schema, table, nil, callback, box)
            } finish: { result, error in
                secret_password_clear_finish(result, &error) != 0
            }
            return
        }
        let _: Bool = try await call(attributes) { service, schema, table, callback, box in
            secret_service_clear(service, schema, table, nil, callback, box)
        } finish: { service, result, error in
            secret_service_clear_finish(service, result, &error) != 0
        }
    }

    public func search(_ attributes: [String: String]) async throws -> [SecretItemSummary] {
        if Self.inSandbox {
            // The keyring file is unlocked by the portal's key as a whole: no item is ever locked.
            return try await passwordCall(attributes) { schema, table, callback, box in
                secret_password_searchv(schema, table, SECRET_SEARCH_ALL, nil, callback, box)
            } finish: { result, error in
                var summaries: [SecretItemSummary] = []
                let list = secret_password_search_finish(result, &error)
                var node = list
                while let current = node {
                    let item = OpaquePointer(current.pointee.data)
                    summaries.append(
                        SecretItemSummary(
                            attributes: Self.dictionary(secret_retrievable_get_attributes(item)),
                            isLocked: false))
                    node = current.pointee.next
                }
                g_list_free_full(list, g_object_unref)
                return summaries
            }
        }
        // Which items are locked, as the daemon answers now: an item object's Locked property can
        // still say unlocked just after the keyring locked.
        let lockedPaths: Set<String> = try await call(attributes) { service, schema, table, callback, box in
            secret_service_search_for_dbus_paths(service, schema, table, nil, callback, box)
        } finish: { service, result, error in
            var unlocked: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
            var locked: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
            guard secret_service_search_for_dbus_paths_finish(service, result, &unlocked, &locked, &error) != 0 else { return [] }
            defer {
                g_strfreev(unlocked)
                g_strfreev(locked)
            }
            var paths: Set<String> = []
            var index = 0
            while let path = locked?[index] {
                paths.insert(String(cString: path))
                index += 1
            }
            return paths
        }
        // SECRET_SEARCH_ALL without UNLOCK: never raises a prompt, and also returns locked items.
        let found: [SecretItemSummary] = try await call(attributes) { service, schema, table, callback, box in
            secret_service_search(service, schema, table, SECRET_SEARCH_ALL, nil, callback, box)
        } finish: { service, result, error in
            var summaries: [SecretItemSummary] = []
            var node = secret_service_search_finish(service, result, &error)
            let list = node
            while let current = node {
                let item = current.pointee.data.assumingMemoryBound(to: SecretItem.self)
                let path = String(
                    cString: g_dbus_proxy_get_object_path(UnsafeMutableRawPointer(item).assumingMemoryBound(to: GDBusProxy.self)))
                summaries.append(
                    SecretItemSummary(
                        attributes: Self.dictionary(secret_item_get_attributes(item)),
                        isLocked: secret_item_get_locked(item) != 0 || lockedPaths.contains(path)))
                node = current.pointee.next
            }
            g_list_free_full(list, g_object_unref)
            return summaries
        }
        return found
    }

    /// Connects in the background and opens the Secret Service session (the key exchange that
    /// `store` and `lookup` need), so a save that follows soon finds both ready.
    public func prepare() {
        if Self.inSandbox { return } // the password API opens what it needs per call
        let connection = self.connection
        MainLoopBridge.invoke { connection.withService(openingSession: true) { _ in } }
    }

    public func defaultCollectionLock() async throws -> CollectionLock {
        if Self.inSandbox { return .unlocked } // the keyring file is opened with the portal's key
        return try await DefaultCollection.lock(of: connected())
    }

    public func unlockDefaultCollection() async throws -> Bool {
        if Self.inSandbox { return true }
        return try await DefaultCollection.unlock(with: connected())
    }

    // MARK: - Plumbing

    /// The Secret Service connection, opened if need be.
    private func connected() async throws -> DefaultCollection.Service {
        let connection = self.connection
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<DefaultCollection.Service, any Error>) in
            MainLoopBridge.invoke {
                connection.withService(openingSession: false) { opened in continuation.resume(with: opened.mapError { $0 }) }
            }
        }
    }

    /// How a Secret Service call starts (the service, schema, attribute table, callback and its
    /// data) and how its result is read in the callback.
    private typealias ServiceCallStart =
        @Sendable (
            UnsafeMutablePointer<SecretService>, UnsafePointer<SecretSchema>, OpaquePointer, GAsyncReadyCallback, UnsafeMutableRawPointer
        ) -> Void
    private typealias ServiceCallFinish<T> =
        @Sendable (
            UnsafeMutablePointer<SecretService>, OpaquePointer, inout UnsafeMutablePointer<GError>?
        ) -> T

    /// Starts one libsecret call on the main context, once connected, with `attributes` as a
    /// GHashTable, and finishes it in its callback; a GError becomes the `SessionStoreError` it
    /// stands for.
    private func call<T: Sendable>(
        _ attributes: [String: String], start: @escaping ServiceCallStart, finish: @escaping ServiceCallFinish<T>
    ) async throws -> T {
        do {
            return try await callOnce(attributes, start: start, finish: finish)
        } catch is LostSecretServiceSession {
            // The Secret Service no longer knows the session libsecret opened with it (the service
            // restarted, or dropped the session): once more on a new connection and session.
            let connection = self.connection
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                MainLoopBridge.invoke {
                    connection.reconnect()
                    done.resume()
                }
            }
            do {
                return try await callOnce(attributes, start: start, finish: finish)
            } catch let again as LostSecretServiceSession {
                throw again.error
            }
        }
    }

    /// `call` without the second try.
    private func callOnce<T: Sendable>(
        _ attributes: [String: String], start: @escaping ServiceCallStart, finish: @escaping ServiceCallFinish<T>
    ) async throws -> T {
        let schema = self.schema
        let connection = self.connection
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            MainLoopBridge.invoke {
                connection.withService(openingSession: false) { opened in
                    switch opened {
                    case .failure(let error):
                        continuation.resume(throwing: error)
                    case .success(let service):
                        PendingCall.begin(
                            attributes: Self.table(attributes), schema: schema,
                            start: { start(service.pointer, $0, $1, $2, $3) },
                            finish: { result, error in finish(service.pointer, result, &error) },
                            continuation: continuation)
                    }
                }
            }
        }
    }

    /// Starts one call of libsecret's password API on the main context (no Secret Service
    /// connection: libsecret picks its backend, the keyring file in a sandbox).
    private func passwordCall<T: Sendable>(
        _ attributes: [String: String],
        start: @escaping @Sendable (UnsafePointer<SecretSchema>, OpaquePointer, GAsyncReadyCallback, UnsafeMutableRawPointer) -> Void,
        finish: @escaping @Sendable (OpaquePointer, inout UnsafeMutablePointer<GError>?) -> T
    ) async throws -> T {
        let schema = self.schema
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            MainLoopBridge.invoke {
                GIOTypes.register() // before libsecret's worker thread opens the keyring file and asks the portal
                PasswordBackend.shared.whenReady(schema: schema) {
                    PendingCall.begin(
                        attributes: Self.table(attributes), schema: schema, start: start, finish: finish,
                        continuation: continuation)
                }
            }
        }
    }

    private static func table(_ attributes: [String: String]) -> OpaquePointer {
        let table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)!
        for (name, value) in attributes { g_hash_table_insert(table, g_strdup(name), g_strdup(value)) }
        return table
    }

    private static func dictionary(_ table: OpaquePointer?) -> [String: String] {
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

/// The Secret Service connection (libsecret keeps one per process), opened once and shared by every
/// call, so one `prepare` started ahead of a save is the one the save uses; a failed one is
/// forgotten, to be tried again. It lives on the main context only (every method runs inside
/// `MainLoopBridge.invoke` or a GLib callback there), so its state needs no lock and no Swift task
/// carries the connection from thread to thread.
private final class SecretServiceConnection: @unchecked Sendable {
    typealias Opened = Result<MainContextPointer<UnsafeMutablePointer<SecretService>>, SessionStoreError>
    private var service: UnsafeMutablePointer<SecretService>?
    /// Who waits for the connection being opened; nil when none is.
    private var waiting: [(Opened) -> Void]?

    /// Main context only: hands `use` the connection, opening it first if need be (with its
    /// session when `openingSession`).
    func withService(openingSession: Bool, _ use: @escaping (Opened) -> Void) {
        if let service { return use(.success(MainContextPointer(service))) }
        if waiting != nil {
            waiting?.append(use)
            return
        }
        waiting = [use]
        GIOTypes.register() // before libsecret's worker thread connects to the bus
        let flags = openingSession ? SECRET_SERVICE_OPEN_SESSION : SECRET_SERVICE_NONE
        secret_service_get(
            flags, nil,
            { _, result, userData in
                let connection = Unmanaged<SecretServiceConnection>.fromOpaque(userData!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let opened: Opened
                if let service = secret_service_get_finish(result, &error) {
                    connection.service = service
                    opened = .success(MainContextPointer(service))
                } else {
                    let failure = GLibError.take(&error)
                    opened = .failure(SessionStoreError(.noService, detail: failure?.message ?? ""))
                }
                let waiting = connection.waiting ?? []
                connection.waiting = nil
                for use in waiting { use(opened) }
            }, Unmanaged.passRetained(self).toOpaque())
    }

    /// Main context only: lets go of libsecret's connection.
    func close() {
        if let service { g_object_unref(service) }
        service = nil
    }

    /// Main context only: lets go of the connection and of libsecret's shared one, so the next call
    /// connects anew and opens a new session.
    func reconnect() {
        close()
        secret_service_disconnect()
    }
}

/// libsecret's password API makes its backend (in a sandbox: the keyring file, opened with the
/// Secret portal's key) on first use, and calls started before it exists each make their own: the
/// app's first calls at start (the session and the Turnkey items at once) then never returned. So
/// the first call is a lookup that only brings the backend up, and every other call waits for it.
/// Main context only, like `SecretServiceConnection`.
private final class PasswordBackend: @unchecked Sendable {
    static let shared = PasswordBackend()
    private var ready = false
    /// Who waits for the backend; nil when it is not being brought up.
    private var waiting: [() -> Void]?

    func whenReady(schema: MainContextPointer<UnsafeMutablePointer<SecretSchema>>, _ start: @escaping () -> Void) {
        if ready { return start() }
        if waiting != nil {
            waiting?.append(start)
            return
        }
        waiting = [start]
        let nothing = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)
        secret_password_lookupv(
            schema.pointer, nothing, nil,
            { _, result, userData in
                let backend = Unmanaged<PasswordBackend>.fromOpaque(userData!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                if let text = secret_password_lookup_finish(result, &error) { secret_password_free(text) }
                g_clear_error(&error) // a failure shows again in the call that waited, with its own error
                backend.ready = true
                let waiting = backend.waiting ?? []
                backend.waiting = nil
                for start in waiting { start() }
            }, Unmanaged.passRetained(self).toOpaque())
        g_hash_table_unref(nothing)
    }
}

/// One call in flight, whatever its result type, as libsecret's callback sees it.
private class CallInFlight {
    func complete(_ result: OpaquePointer) {}
}

/// libsecret's callback for every call: finishes the retained `CallInFlight` passed as user data.
private let finishCall: GAsyncReadyCallback = { _, result, userData in
    Unmanaged<CallInFlight>.fromOpaque(userData!).takeRetainedValue().complete(result!)
}

/// One call in flight: keeps its attribute table alive until libsecret calls back.
private final class PendingCall<T: Sendable>: CallInFlight {
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
        if error.domain == secret_error_get_quark() {
            switch SecretError(rawValue: UInt32(bitPattern: error.code)) {
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
    /// kwalletd5 "Can't find session …", and "Client public key size is invalid" when libsecret's
    /// Diffie-Hellman key happens to start with a zero byte (about one session in 256); where the
    /// name survives it is NoSession (or kwalletd5's UnknownObject).
    static func isLostSession(_ error: GLibError) -> Bool {
        if error.domain == g_dbus_error_quark() {
            return error.remoteName == "org.freedesktop.Secret.Error.NoSession"
                || (error.remoteName == "org.freedesktop.DBus.Error.UnknownObject" && error.message.contains("session"))
        }
        let words = error.message.lowercased()
        return error.matches(g_io_error_quark(), G_IO_ERROR_DBUS_ERROR) && (words.contains("session") || words.contains("public key size"))
    }

    private static let noServiceCodes: [GDBusError] = [
        G_DBUS_ERROR_SERVICE_UNKNOWN, G_DBUS_ERROR_NAME_HAS_NO_OWNER, G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND,
        G_DBUS_ERROR_SPAWN_SERVICE_INVALID, G_DBUS_ERROR_SPAWN_EXEC_FAILED, G_DBUS_ERROR_SPAWN_CHILD_EXITED,
        G_DBUS_ERROR_SPAWN_FAILED, G_DBUS_ERROR_NO_SERVER, G_DBUS_ERROR_FILE_NOT_FOUND
    ]
}

/// A call failed because the Secret Service lost its session; `error` is how it is reported when a
/// new session does not help either.
private struct LostSecretServiceSession: Error {
    let error: SessionStoreError
}
