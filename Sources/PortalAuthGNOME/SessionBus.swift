import CAuthPlatform

/// GIO's shared session bus connection, for the blocking questions asked before a main loop runs
/// (is a Secret Service there, who owns the app's name). It is kept for the rest of the process:
/// the shared connection lives only while someone holds it, so releasing it after the question made
/// the next user (libsecret's first call in the CLI, `g_application_register` in the app) open a
/// second one, with its own authentication handshake and `Hello`. Every call takes one more
/// reference to the same connection.
enum SessionBus {
    /// The connection, or nil when there is no session bus.
    static func keptConnection() -> OpaquePointer? {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        return bus
    }
}
