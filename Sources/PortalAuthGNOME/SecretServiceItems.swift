import AuthBase
import CAuthPlatform
import GLibSupport

/// `SecretItems` on libsecret's asynchronous Secret Service API, called on GLib's main context.
/// Items go to the default collection ("login"). Outside a sandbox only (`LibsecretItems.make`).
final class SecretServiceItems: SecretItems, Sendable {
    private let schema: LibsecretSchema
    private let connection = SecretServiceConnection()

    init(schema: LibsecretSchema) { self.schema = schema }

    deinit {
        let connection = self.connection
        MainLoopBridge.invoke { connection.close() }
    }

    func lookup(_ attributes: [String: String]) async throws -> String? {
        return try await call(attributes) { service, schema, table, callback, box in
            libsecret.secret_service_lookup(service, schema, table, nil, callback, box)
        } finish: { service, result, error in
            guard let value = libsecret.secret_service_lookup_finish(service, result, &error) else { return nil }
            defer { libsecret.secret_value_unref(UnsafeMutableRawPointer(value)) }
            return libsecret.secret_value_get_text(value).map { String(cString: $0) }
        }
    }

    func store(_ secret: String, label: String, attributes: [String: String]) async throws {
        let value = MainContextPointer(libsecret.secret_value_new(secret, -1, "text/plain")!)
        defer { libsecret.secret_value_unref(UnsafeMutableRawPointer(value.pointer)) }
        let stored: Bool = try await call(attributes) { service, schema, table, callback, box in
            libsecret.secret_service_store(service, schema, table, SECRET_COLLECTION_DEFAULT, label, value.pointer, nil, callback, box)
        } finish: { service, result, error in
            libsecret.secret_service_store_finish(service, result, &error) != 0
        }
        if !stored { throw SessionStoreError(.notKept) }
    }

    func clear(_ attributes: [String: String]) async throws {
        // FALSE without an error means nothing matched, which is fine.
        let _: Bool = try await call(attributes) { service, schema, table, callback, box in
            libsecret.secret_service_clear(service, schema, table, nil, callback, box)
        } finish: { service, result, error in
            libsecret.secret_service_clear_finish(service, result, &error) != 0
        }
    }

    func search(_ attributes: [String: String]) async throws -> [SecretItemSummary] {
        // Which items are locked, as the daemon answers now: an item object's Locked property can
        // still say unlocked just after the keyring locked.
        let lockedPaths: Set<String> = try await call(attributes) { service, schema, table, callback, box in
            libsecret.secret_service_search_for_dbus_paths(service, schema, table, nil, callback, box)
        } finish: { service, result, error in
            var unlocked: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
            var locked: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
            guard libsecret.secret_service_search_for_dbus_paths_finish(service, result, &unlocked, &locked, &error) != 0 else { return [] }
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
            libsecret.secret_service_search(service, schema, table, SECRET_SEARCH_ALL, nil, callback, box)
        } finish: { service, result, error in
            var summaries: [SecretItemSummary] = []
            var node = libsecret.secret_service_search_finish(service, result, &error)
            let list = node
            while let current = node {
                let item = current.pointee.data.assumingMemoryBound(to: SecretItem.self)
                let path = String(
                    cString: g_dbus_proxy_get_object_path(UnsafeMutableRawPointer(item).assumingMemoryBound(to: GDBusProxy.self)))
                summaries.append(
                    SecretItemSummary(
                        attributes: LibsecretAttributes.dictionary(libsecret.secret_item_get_attributes(item)),
                        isLocked: libsecret.secret_item_get_locked(item) != 0 || lockedPaths.contains(path)))
                node = current.pointee.next
            }
            g_list_free_full(list, g_object_unref)
            return summaries
        }
        return found
    }

    /// Connects in the background and opens the Secret Service session (the key exchange that
    /// `store` and `lookup` need), so a save that follows soon finds both ready.
    func prepare() {
        let connection = self.connection
        MainLoopBridge.invoke { connection.withService(openingSession: true) { _ in } }
    }

    func defaultCollectionLock() async throws -> CollectionLock {
        return try await DefaultCollection.lock(of: connected())
    }

    func unlockDefaultCollection() async throws -> Bool {
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
        let schema = self.schema.pointer
        let connection = self.connection
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            MainLoopBridge.invoke {
                connection.withService(openingSession: false) { opened in
                    switch opened {
                    case .failure(let error):
                        continuation.resume(throwing: error)
                    case .success(let service):
                        PendingCall.begin(
                            attributes: LibsecretAttributes.table(attributes), schema: schema,
                            start: { start(service.pointer, $0, $1, $2, $3) },
                            finish: { result, error in finish(service.pointer, result, &error) },
                            continuation: continuation)
                    }
                }
            }
        }
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
    /// Someone asked for the session ahead of a save (`prepare`), and it is not being opened yet.
    private var sessionWanted = false

    /// Main context only: hands `use` the connection, opening it first if need be (with its
    /// session when `openingSession`: then also on a connection opened earlier without one).
    func withService(openingSession: Bool, _ use: @escaping (Opened) -> Void) {
        if openingSession { sessionWanted = true }
        if let service {
            openSessionIfWanted(service)
            return use(.success(MainContextPointer(service)))
        }
        if waiting != nil {
            waiting?.append(use)
            return
        }
        waiting = [use]
        GIOTypes.register() // before libsecret's worker thread connects to the bus
        let flags = openingSession ? SECRET_SERVICE_OPEN_SESSION : SECRET_SERVICE_NONE
        libsecret.secret_service_get(
            flags, nil,
            { _, result, userData in
                let connection = Unmanaged<SecretServiceConnection>.fromOpaque(userData!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let opened: Opened
                if let service = libsecret.secret_service_get_finish(result, &error) {
                    connection.service = service
                    connection.openSessionIfWanted(service)
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

    /// Starts the session's key exchange in the background when `prepare` asked for it and the
    /// connection has none: the connection is often opened first without one, to ask whether the
    /// keyring is locked before a grant is spent, and the exchange then runs beside the grant's.
    private func openSessionIfWanted(_ service: UnsafeMutablePointer<SecretService>) {
        guard sessionWanted else { return }
        sessionWanted = false
        if libsecret.secret_service_get_session_algorithms(service) == nil {
            libsecret.secret_service_ensure_session(service, nil, nil, nil)
        }
    }

    /// Main context only: lets go of libsecret's connection.
    func close() {
        if let service { g_object_unref(service) }
        service = nil
        sessionWanted = false
    }

    /// Main context only: lets go of the connection and of libsecret's shared one, so the next call
    /// connects anew and opens a new session.
    func reconnect() {
        close()
        libsecret.secret_service_disconnect()
    }
}
