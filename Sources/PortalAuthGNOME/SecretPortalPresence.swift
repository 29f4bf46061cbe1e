import CAuthPlatform
import GLibSupport

/// Whether the desktop portal offers the Secret portal (`org.freedesktop.portal.Secret`), which keeps
/// the key to a sandboxed app's own keyring file: in a Flatpak that is the keyring. Asked as its
/// `version` property, which starts xdg-desktop-portal if it is not running yet, as libsecret's
/// first lookup would; a portal without a Secret backend (or no portal at all) answers with an error.
enum SecretPortalPresence {
    static let portalName = "org.freedesktop.portal.Desktop"
    private static let portalPath = "/org/freedesktop/portal/desktop"
    private static let properties = "org.freedesktop.DBus.Properties"
    /// How long a portal being started may take before it counts as missing.
    private static let timeoutMilliseconds: Int32 = 10_000

    /// Blocking: for the CLI, before its main loop runs. The session bus connection it opens is kept
    /// for libsecret's calls to the portal (`SessionBus`).
    static func check() -> Bool {
        guard let bus = SessionBus.keptConnection() else { return false }
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(
            bus, portalName, portalPath, properties, "Get", versionParameters(), nil, G_DBUS_CALL_FLAGS_NONE, timeoutMilliseconds,
            nil, &error)
        g_clear_error(&error)
        guard let reply else { return false }
        g_variant_unref(reply)
        return true
    }

    /// The same question without blocking, asked on GLib's main context.
    static func isAvailable() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            MainLoopBridge.invoke {
                var error: UnsafeMutablePointer<GError>?
                guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
                    g_clear_error(&error)
                    return continuation.resume(returning: false)
                }
                defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
                let answer = Unmanaged.passRetained(Answer(continuation)).toOpaque()
                g_dbus_connection_call(
                    bus, portalName, portalPath, properties, "Get", versionParameters(), nil, G_DBUS_CALL_FLAGS_NONE,
                    timeoutMilliseconds, nil,
                    { source, result, userData in
                        var error: UnsafeMutablePointer<GError>?
                        let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
                        g_clear_error(&error)
                        if let reply { g_variant_unref(reply) }
                        Unmanaged<Answer>.fromOpaque(userData!).takeRetainedValue().continuation.resume(returning: reply != nil)
                    }, answer)
            }
        }
    }

    /// `(ss)`: the Secret portal's interface and its `version` property. Floating, so the call takes it.
    private static func versionParameters() -> OpaquePointer {
        var children: [OpaquePointer?] = [g_variant_new_string("org.freedesktop.portal.Secret"), g_variant_new_string("version")]
        return g_variant_new_tuple(&children, 2)
    }

    private final class Answer {
        let continuation: CheckedContinuation<Bool, Never>
        init(_ continuation: CheckedContinuation<Bool, Never>) { self.continuation = continuation }
    }
}
