import CAuthPlatform
import GLibSupport
import Glibc
import Synchronization

/// Whether a Secret Service (gnome-keyring, KWallet, KeePassXC, …) is there to keep a session in,
/// asked of the session bus before anything that would spend a grant: a session the keyring cannot
/// keep is a live session nobody holds.
///
/// "There" means the bus name `org.freedesktop.secrets` has an owner or, failing that, the bus can
/// start one (`StartServiceByName`, as libsecret's first call would; the bus answers that for a
/// name with a service file only, so the owner is asked about first). Without a session bus there
/// is none.
///
/// Inside a Flatpak libsecret keeps secrets in the app's own keyring file, unlocked with a key from
/// the Secret portal, and never talks to `org.freedesktop.secrets`: there the question is whether
/// the desktop portal offers the Secret portal (`SecretPortalPresence`). With `SECRET_BACKEND=file`
/// outside a sandbox libsecret needs no service: the answer is yes.
public enum SecretServicePresence {
    /// The Secret Service's well-known name on the session bus.
    public static let busName = "org.freedesktop.secrets"
    /// How long a service being started may take before it counts as missing.
    private static let startTimeoutMilliseconds: Int32 = 10_000

    /// Blocking: for the CLI, before its main loop runs. The session bus connection it opens is kept
    /// for libsecret's calls (`SessionBus`).
    public static func check() -> Bool {
        if FlatpakSandbox.isInside { return SecretPortalPresence.check() }
        if usesFileBackend { return true }
        guard let bus = SessionBus.keptConnection() else { return false }
        var error: UnsafeMutablePointer<GError>?
        let owned = g_dbus_connection_call_sync(
            bus, busDaemon, busPath, busDaemon, "NameHasOwner", nameParameters(),
            nil, G_DBUS_CALL_FLAGS_NONE, -1, nil, &error)
        g_clear_error(&error)
        if answeredTrue(owned) { return true }
        let started = g_dbus_connection_call_sync(
            bus, busDaemon, busPath, busDaemon, "StartServiceByName", startParameters(),
            nil, G_DBUS_CALL_FLAGS_NONE, startTimeoutMilliseconds, nil, &error)
        g_clear_error(&error)
        guard let started else { return false }
        g_variant_unref(started)
        return true
    }

    /// The same question without blocking, asked on GLib's main context.
    public static func isAvailable() async -> Bool {
        if FlatpakSandbox.isInside { return await SecretPortalPresence.isAvailable() }
        if usesFileBackend { return true }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            MainLoopBridge.invoke {
                let answer = Unmanaged.passRetained(Answer(continuation)).toOpaque()
                g_bus_get(
                    G_BUS_TYPE_SESSION, nil,
                    { _, result, userData in
                        var error: UnsafeMutablePointer<GError>?
                        guard let bus = g_bus_get_finish(result, &error) else {
                            g_clear_error(&error)
                            return Answer.take(userData).resume(false)
                        }
                        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
                        g_dbus_connection_call(
                            bus, SecretServicePresence.busDaemon, SecretServicePresence.busPath, SecretServicePresence.busDaemon,
                            "NameHasOwner", SecretServicePresence.nameParameters(), nil,
                            G_DBUS_CALL_FLAGS_NONE, -1, nil,
                            { source, result, userData in
                                let bus = OpaquePointer(source)
                                var error: UnsafeMutablePointer<GError>?
                                let owned = g_dbus_connection_call_finish(bus, result, &error)
                                g_clear_error(&error)
                                if SecretServicePresence.answeredTrue(owned) { return Answer.take(userData).resume(true) }
                                g_dbus_connection_call(
                                    bus, SecretServicePresence.busDaemon, SecretServicePresence.busPath, SecretServicePresence.busDaemon,
                                    "StartServiceByName", SecretServicePresence.startParameters(), nil,
                                    G_DBUS_CALL_FLAGS_NONE, SecretServicePresence.startTimeoutMilliseconds, nil,
                                    { source, result, userData in
                                        var error: UnsafeMutablePointer<GError>?
                                        let started = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
                                        g_clear_error(&error)
                                        if let started { g_variant_unref(started) }
                                        Answer.take(userData).resume(started != nil)
                                    }, userData)
                            }, userData)
                    }, answer)
            }
        }
    }

    /// libsecret's own choice (secret-backend.c) outside a sandbox: the file backend when asked for.
    private static var usesFileBackend: Bool {
        guard let chosen = getenv("SECRET_BACKEND") else { return false }
        return String(cString: chosen) == "file"
    }

    /// The bus name whose owner keeps the secrets: the desktop portal's in a sandbox.
    static var watchedName: String { FlatpakSandbox.isInside ? SecretPortalPresence.portalName : busName }

    private static let busDaemon = "org.freedesktop.DBus"
    private static let busPath = "/org/freedesktop/DBus"

    /// Whether a `(b)` reply says true; releases it.
    private static func answeredTrue(_ reply: OpaquePointer?) -> Bool {
        guard let reply else { return false }
        defer { g_variant_unref(reply) }
        let child = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(child) }
        return g_variant_get_boolean(child) != 0
    }

    /// `(s)`: the name. Floating, so the call takes it.
    private static func nameParameters() -> OpaquePointer {
        var children: [OpaquePointer?] = [g_variant_new_string(busName)]
        return g_variant_new_tuple(&children, 1)
    }

    /// `(su)`: the name, no flags. Floating, so the call takes it.
    private static func startParameters() -> OpaquePointer {
        var children: [OpaquePointer?] = [g_variant_new_string(busName), g_variant_new_uint32(0)]
        return g_variant_new_tuple(&children, 2)
    }

    private final class Answer {
        let continuation: CheckedContinuation<Bool, Never>
        init(_ continuation: CheckedContinuation<Bool, Never>) { self.continuation = continuation }
        static func take(_ pointer: UnsafeMutableRawPointer?) -> Answer {
            Unmanaged<Answer>.fromOpaque(pointer!).takeRetainedValue()
        }
        func resume(_ available: Bool) { continuation.resume(returning: available) }
    }
}

/// Calls `onChange` (on GLib's main context) whenever the bus name `org.freedesktop.secrets` (in a
/// sandbox, the desktop portal's) gains or loses an owner, and once at the start; watching ends
/// when this is released.
public final class SecretServiceWatch: Sendable {
    private let watcher = Watcher()

    /// Starts watching; `onChange` runs on GLib's main context, first at once.
    public init(onChange: @escaping @Sendable () -> Void) {
        let watcher = self.watcher
        let box = MainContextPointer(Unmanaged.passRetained(ChangeBox(onChange)).toOpaque())
        MainLoopBridge.invoke {
            let id = g_bus_watch_name(
                G_BUS_TYPE_SESSION, SecretServicePresence.watchedName, G_BUS_NAME_WATCHER_FLAGS_NONE,
                { _, _, _, userData in Unmanaged<ChangeBox>.fromOpaque(userData!).takeUnretainedValue().onChange() },
                { _, _, userData in Unmanaged<ChangeBox>.fromOpaque(userData!).takeUnretainedValue().onChange() },
                box.pointer, { userData in Unmanaged<ChangeBox>.fromOpaque(userData!).release() })
            watcher.id.withLock { $0 = id }
        }
    }

    deinit {
        let watcher = self.watcher
        MainLoopBridge.invoke {
            let id = watcher.id.withLock { $0 }
            if id != 0 { g_bus_unwatch_name(id) }
        }
    }

    private final class Watcher: Sendable {
        let id = Mutex<guint>(0)
    }

    private final class ChangeBox {
        let onChange: @Sendable () -> Void
        init(_ onChange: @escaping @Sendable () -> Void) { self.onChange = onChange }
    }
}
