import CAuthPlatform
import Foundation

/// Locks and unlocks the private session's login keyring over D-Bus, as a person would with
/// Seahorse. Unlocking uses gnome-keyring's own master-password call, so no prompt is needed;
/// the password is the one `script/with-desktop-session` created the keyring with.
enum LoginKeyring {
    static let collection = "/org/freedesktop/secrets/collection/login"
    static let password = "portal-test-keyring"

    struct Failure: Error, CustomStringConvertible { let description: String }

    static func lock() throws {
        _ = try call(
            "/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "Lock",
            "([objectpath '\(collection)'],)")
    }

    static func unlock() throws {
        // The Secret Service closes a session when the connection that opened it closes, so both
        // calls go over one connection held open until the unlock is done (nothing else in the
        // test process may be keeping the shared session bus connection alive).
        let bus = try sessionBus()
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let opened = try call(
            "/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "OpenSession",
            "('plain', <''>)", on: bus)
        defer { g_variant_unref(opened) }
        let sessionPath = g_variant_get_child_value(opened, 1)!
        defer { g_variant_unref(sessionPath) }
        let session = String(cString: g_variant_get_string(sessionPath, nil))
        let bytes = password.utf8.map(String.init).joined(separator: ", ")
        let unlocked = try call(
            "/org/freedesktop/secrets", "org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface",
            "UnlockWithMasterPassword",
            "(objectpath '\(collection)', (objectpath '\(session)', @ay [], @ay [\(bytes)], 'text/plain'))",
            on: bus)
        g_variant_unref(unlocked)
        guard try !isLocked else { throw Failure(description: "the login keyring stayed locked") }
    }

    /// The collection's `Locked` property. A D-Bus failure is thrown, not read as either answer:
    /// "locked" would let a check that wants it locked pass when the keyring cannot be asked at all.
    static var isLocked: Bool {
        get throws {
            let reply = try call(
                collection, "org.freedesktop.DBus.Properties", "Get",
                "('org.freedesktop.Secret.Collection', 'Locked')")
            return locked(reply)
        }
    }

    private static func locked(_ reply: OpaquePointer) -> Bool {
        defer { g_variant_unref(reply) }
        let boxed = g_variant_get_child_value(reply, 0)!
        let value = g_variant_get_variant(boxed)!
        defer {
            g_variant_unref(value)
            g_variant_unref(boxed)
        }
        return g_variant_get_boolean(value) != 0
    }

    private static func sessionBus() throws -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else { throw failure(error) }
        return bus
    }

    private static func call(
        _ path: String, _ interface: String, _ method: String, _ parameters: String,
        on connection: OpaquePointer? = nil
    ) throws -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        let bus =
            try connection.map { OpaquePointer(g_object_ref(UnsafeMutableRawPointer($0))) }
            ?? sessionBus()
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        guard let arguments = g_variant_parse(nil, parameters, nil, nil, &error) else { throw failure(error) }
        defer { g_variant_unref(arguments) }
        guard
            let reply = g_dbus_connection_call_sync(
                bus, "org.freedesktop.secrets", path, interface, method, arguments,
                nil, G_DBUS_CALL_FLAGS_NONE, 10_000, nil, &error)
        else {
            throw failure(error)
        }
        return reply
    }

    private static func failure(_ error: UnsafeMutablePointer<GError>?) -> Failure {
        defer { if let error { g_error_free(error) } }
        return Failure(description: error?.pointee.message.map { String(cString: $0) } ?? "D-Bus call failed")
    }
}
