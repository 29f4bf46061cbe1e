import CAuthPlatform

/// Registers GIO's networking types on the calling thread before any worker thread can.
///
/// libsecret connects to the session bus in a GIO worker thread (GTask) while libsoup, on the main
/// context, initialises SoupSession's class, and both register the same socket-address types on
/// first use. GLib 2.74 can deadlock there: the worker holds one type's one-time registration and
/// waits for the type lock, while the main thread holds that lock inside a class initialiser and
/// waits for the same registration (seen as a `portal-auth handle-redirect` that never returned,
/// with the keyring connection opened while the grant was on the wire). Types that already exist
/// need neither, so every libsoup or libsecret entry point calls this first.
enum GIOTypes {
    /// Idempotent and cheap after the first call (a Swift lazy global, initialised once).
    static func register() { _ = registered }

    private static let registered: Bool = {
        let types: [GType] = [
            g_inet_address_get_type(), g_inet_socket_address_get_type(), g_proxy_address_get_type(),
            g_unix_socket_address_get_type(), g_network_address_get_type(), g_socket_client_get_type(),
            g_socket_connection_get_type(), g_tcp_connection_get_type(), g_unix_connection_get_type(),
            g_proxy_address_enumerator_get_type(), g_dbus_connection_get_type(), g_task_get_type(),
            g_proxy_resolver_get_type(), g_socket_connectable_get_type(), g_tls_database_get_type(),
            g_tls_interaction_get_type(), g_tls_certificate_get_type()
        ]
        for type in types { g_type_ensure(type) }
        // libsoup's class initialisers are where the main thread waited: run them here, once.
        for type in [libsoup.soup_session_get_type(), libsoup.soup_message_get_type()] {
            g_type_class_unref(g_type_class_ref(type))
        }
        return true
    }()
}
