import AuthBase
import CAuthPlatform
import GLibSupport

/// The Secret Service's default collection (the alias "default"): its lock asked over D-Bus with
/// calls that raise no prompt on any service (the properties of the alias's object, or where the
/// service has none, the alias, then the collection's own properties), and
/// its unlock through the service's own prompt. Main context only, like the rest of libsecret's use.
enum DefaultCollection {
    typealias Service = MainContextPointer<UnsafeMutablePointer<SecretService>>

    static func lock(of service: Service) async throws -> CollectionLock {
        // One round trip where the service answers on the alias's own path, as the Secret Service
        // spec has it (gnome-keyring, KeePassXC, kwalletd5); else (no such object, no default
        // collection, a service without alias objects) the alias is read, then its collection: two.
        if let state = try? await properties(service, path: aliasPath) { return state }
        guard let path = try await path(service) else { return .unlocked }
        return try await properties(service, path: path)
    }

    /// Where the Secret Service spec puts the collection the alias "default" names.
    static let aliasPath = "/org/freedesktop/secrets/aliases/default"

    /// The lock of the collection at `path`, from its properties (`Locked`, and whether it lists items).
    private static func properties(_ service: Service, path: String) async throws -> CollectionLock {
        let state: (locked: Bool, items: Int) = try await call(
            service, path: path, interface: "org.freedesktop.DBus.Properties",
            method: "GetAll", argument: "org.freedesktop.Secret.Collection"
        ) { reply in
            let properties = g_variant_get_child_value(reply, 0)
            defer { g_variant_unref(properties) }
            var locked = false
            var items = 0
            // Any type is asked for, then checked: a GVariantType is a C string that must outlive the call.
            if let value = g_variant_lookup_value(properties, "Locked", nil) {
                locked = g_variant_classify(value) == G_VARIANT_CLASS_BOOLEAN && g_variant_get_boolean(value) != 0
                g_variant_unref(value)
            }
            if let value = g_variant_lookup_value(properties, "Items", nil) {
                items = g_variant_classify(value) == G_VARIANT_CLASS_ARRAY ? Int(g_variant_n_children(value)) : 0
                g_variant_unref(value)
            }
            return (locked, items)
        }
        return state.locked ? .locked(listsItems: state.items > 0) : .unlocked
    }

    /// Unlocks the default collection (the service shows its prompt); false when it stayed locked.
    static func unlock(with service: Service) async throws -> Bool {
        guard let path = try await path(service) else { return true }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
            MainLoopBridge.invoke { UnlockInFlight.shared.unlock(path, service: service) { continuation.resume(with: $0) } }
        }
    }

    /// The object path the alias "default" names, or nil when there is no default collection.
    private static func path(_ service: Service) async throws -> String? {
        let path: String = try await call(
            service, path: "/org/freedesktop/secrets", interface: "org.freedesktop.Secret.Service",
            method: "ReadAlias", argument: "default"
        ) { reply in
            let child = g_variant_get_child_value(reply, 0)
            defer { g_variant_unref(child) }
            return String(cString: g_variant_get_string(child, nil))
        }
        return path == "/" ? nil : path
    }

    /// One method call with one string argument on the service's connection; `read` takes what it
    /// needs from the reply (on the main context). A failure is the `SessionStoreError` it stands for.
    private static func call<T: Sendable>(
        _ service: Service, path: String, interface: String, method: String, argument: String,
        read: @escaping @Sendable (OpaquePointer) -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            MainLoopBridge.invoke {
                let proxy = UnsafeMutableRawPointer(service.pointer).assumingMemoryBound(to: GDBusProxy.self)
                var children: [OpaquePointer?] = [g_variant_new_string(argument)]
                let inFlight: CallInFlight = Reply(read: read, continuation: continuation)
                g_dbus_connection_call(
                    g_dbus_proxy_get_connection(proxy), g_dbus_proxy_get_name(proxy), path, interface, method,
                    g_variant_new_tuple(&children, 1), nil, G_DBUS_CALL_FLAGS_NONE, -1, nil,
                    { source, result, userData in
                        Unmanaged<CallInFlight>.fromOpaque(userData!).takeRetainedValue().complete(OpaquePointer(source), result)
                    }, Unmanaged.passRetained(inFlight).toOpaque())
            }
        }
    }

    /// A call in flight, whatever its result type, as GDBus's callback sees it.
    private class CallInFlight {
        func complete(_ connection: OpaquePointer?, _ result: OpaquePointer?) {}
    }

    private final class Reply<T: Sendable>: CallInFlight {
        let read: @Sendable (OpaquePointer) -> T
        let continuation: CheckedContinuation<T, any Error>
        init(read: @escaping @Sendable (OpaquePointer) -> T, continuation: CheckedContinuation<T, any Error>) {
            self.read = read
            self.continuation = continuation
        }

        override func complete(_ connection: OpaquePointer?, _ result: OpaquePointer?) {
            var error: UnsafeMutablePointer<GError>?
            if let answer = g_dbus_connection_call_finish(connection, result, &error) {
                defer { g_variant_unref(answer) }
                continuation.resume(returning: read(answer))
            } else {
                continuation.resume(throwing: GLibError.take(&error).map(KeyringErrors.classify) ?? SessionStoreError(.other))
            }
        }
    }
}

/// One unlock at a time in the process: the app's first reads come together, and one prompt
/// answers them all (a second one would wait behind the first, or show twice). Main context only.
private final class UnlockInFlight: @unchecked Sendable {
    typealias Done = (Result<Bool, any Error>) -> Void
    static let shared = UnlockInFlight()
    /// Who waits for the unlock in flight; nil when none is.
    private var waiting: [Done]?

    func unlock(_ path: String, service: DefaultCollection.Service, _ done: @escaping Done) {
        if waiting != nil {
            waiting?.append(done)
            return
        }
        waiting = [done]
        let copy = g_strdup(path)
        var paths: [UnsafePointer<gchar>?] = [UnsafePointer(copy), nil]
        libsecret.secret_service_unlock_dbus_paths(
            service.pointer, &paths, nil,
            { source, result, userData in
                let inFlight = Unmanaged<UnlockInFlight>.fromOpaque(userData!).takeRetainedValue()
                var unlocked: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
                var error: UnsafeMutablePointer<GError>?
                let count = libsecret.secret_service_unlock_dbus_paths_finish(
                    OpaquePointer(source).map { UnsafeMutablePointer<SecretService>($0) },
                    result, &unlocked, &error)
                g_strfreev(unlocked)
                let outcome: Result<Bool, any Error>
                if let failure = GLibError.take(&error) {
                    let kind = KeyringErrors.classify(failure)
                    // A dismissed prompt can also come back as a cancellation.
                    outcome = kind.kind == .dismissed ? .success(false) : .failure(kind)
                } else {
                    outcome = .success(count > 0)
                }
                let waiting = inFlight.waiting ?? []
                inFlight.waiting = nil
                for done in waiting { done(outcome) }
            }, Unmanaged.passRetained(self).toOpaque())
        g_free(copy)
    }
}
