import AuthBase
import CAuthPlatform
import GLibSupport

/// `SecretItems` in a Flatpak sandbox: libsecret's password API, which keeps items in the app's own
/// keyring file (`$XDG_DATA_HOME/keyrings/default.keyring`, under `~/.var/app/ID/`) with a key from
/// the Secret portal. The Secret Service calls would reach the host's login keyring, which the
/// sandbox is not given (no `--talk-name=org.freedesktop.secrets`) and should not be.
final class SecretPortalItems: SecretItems, Sendable {
    private let schema: LibsecretSchema

    init(schema: LibsecretSchema) { self.schema = schema }

    func lookup(_ attributes: [String: String]) async throws -> String? {
        try await call(attributes) { schema, table, callback, box in
            libsecret.secret_password_lookupv(schema, table, nil, callback, box)
        } finish: { result, error in
            guard let text = libsecret.secret_password_lookup_finish(result, &error) else { return nil }
            defer { libsecret.secret_password_free(text) }
            return String(cString: text)
        }
    }

    func store(_ secret: String, label: String, attributes: [String: String]) async throws {
        let stored: Bool = try await call(attributes) { schema, table, callback, box in
            libsecret.secret_password_storev(schema, table, SECRET_COLLECTION_DEFAULT, label, secret, nil, callback, box)
        } finish: { result, error in
            libsecret.secret_password_store_finish(result, &error) != 0
        }
        if !stored { throw SessionStoreError(.notKept) }
    }

    func clear(_ attributes: [String: String]) async throws {
        let _: Bool = try await call(attributes) { schema, table, callback, box in
            libsecret.secret_password_clearv(schema, table, nil, callback, box)
        } finish: { result, error in
            libsecret.secret_password_clear_finish(result, &error) != 0
        }
    }

    func search(_ attributes: [String: String]) async throws -> [SecretItemSummary] {
        // The keyring file is unlocked by the portal's key as a whole: no item is ever locked.
        try await call(attributes) { schema, table, callback, box in
            libsecret.secret_password_searchv(schema, table, SECRET_SEARCH_ALL, nil, callback, box)
        } finish: { result, error in
            var summaries: [SecretItemSummary] = []
            let list = libsecret.secret_password_search_finish(result, &error)
            var node = list
            while let current = node {
                let item = OpaquePointer(current.pointee.data)
                summaries.append(
                    SecretItemSummary(
                        attributes: LibsecretAttributes.dictionary(libsecret.secret_retrievable_get_attributes(item)),
                        isLocked: false))
                node = current.pointee.next
            }
            g_list_free_full(list, g_object_unref)
            return summaries
        }
    }

    /// Nothing to open ahead: the password API opens what it needs per call.
    func prepare() {}

    /// The keyring file is opened with the portal's key: never locked.
    func defaultCollectionLock() async throws -> CollectionLock { .unlocked }

    func unlockDefaultCollection() async throws -> Bool { true }

    // MARK: - Plumbing

    /// Starts one call of libsecret's password API on the main context (no Secret Service
    /// connection: libsecret picks its backend, the keyring file in a sandbox).
    private func call<T: Sendable>(
        _ attributes: [String: String],
        start: @escaping @Sendable (UnsafePointer<SecretSchema>, OpaquePointer, GAsyncReadyCallback, UnsafeMutableRawPointer) -> Void,
        finish: @escaping @Sendable (OpaquePointer, inout UnsafeMutablePointer<GError>?) -> T
    ) async throws -> T {
        let schema = self.schema.pointer
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            MainLoopBridge.invoke {
                GIOTypes.register() // before libsecret's worker thread opens the keyring file and asks the portal
                PasswordBackend.shared.whenReady(schema: schema) {
                    PendingCall.begin(
                        attributes: LibsecretAttributes.table(attributes), schema: schema, start: start, finish: finish,
                        continuation: continuation)
                }
            }
        }
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
        libsecret.secret_password_lookupv(
            schema.pointer, nothing, nil,
            { _, result, userData in
                let backend = Unmanaged<PasswordBackend>.fromOpaque(userData!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                if let text = libsecret.secret_password_lookup_finish(result, &error) { libsecret.secret_password_free(text) }
                g_clear_error(&error) // a failure shows again in the call that waited, with its own error
                backend.ready = true
                let waiting = backend.waiting ?? []
                backend.waiting = nil
                for start in waiting { start() }
            }, Unmanaged.passRetained(self).toOpaque())
        g_hash_table_unref(nothing)
    }
}
