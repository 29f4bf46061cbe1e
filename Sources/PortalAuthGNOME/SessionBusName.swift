import CAuthPlatform
import Glibc

/// Who owns a well-known name on the session bus. GApplication takes the app's ID as its name; a
/// second start of the app finds it taken and forwards its activation and URIs to the owner, so a
/// program that took the name while the app was not running would be handed every redirect.
///
/// "This app" is the owner whose executable (`/proc/PID/exe`) is the running program's own. That
/// tells the app from another program (a script, another app), not from code running as the same
/// user that sets out to deceive: such code can run this very executable with a library preloaded,
/// or replace the install in the home folder, and no check from inside the session can stop it. In a
/// Flatpak sandbox the owner's process is outside the sandbox's process list, so no check is made.
package struct SessionBusName: Sendable {
    package enum Owner: Sendable, Equatable {
        case nobody
        /// Another instance of this program: forwarding to it is what a second start is for.
        case thisApp
        /// Another program; `description` names it for the person ("python3.11, process 4242").
        case foreign(description: String)
    }

    package let name: String

    package init(_ name: String) {
        self.name = name
    }

    /// Asks the bus (`GetConnectionUnixProcessID`) and compares executables. `nobody` when there is no
    /// session bus or the bus cannot say: then GApplication finds no owner to forward to either. The
    /// session bus connection it opens is kept (`SessionBus`).
    package func owner() -> Owner {
        if FlatpakSandbox.isInside { return .nobody }
        guard let pid = ownerPid() else { return .nobody }
        let ownExecutable = Self.executable(of: "self")
        let executable = Self.executable(of: String(pid))
        if let executable, executable == ownExecutable { return .thisApp }
        let program = executable.map { String($0.split(separator: "/").last ?? Substring($0)) } ?? "an unknown program"
        return .foreign(description: "\(program), process \(pid)")
    }

    private func ownerPid() -> UInt32? {
        // The app registers its name on this connection right after.
        guard let bus = SessionBus.keptConnection() else { return nil }
        var error: UnsafeMutablePointer<GError>?
        var argument: OpaquePointer? = g_variant_new_string(name)
        let parameters = g_variant_new_tuple(&argument, 1)
        guard
            let reply = g_dbus_connection_call_sync(
                bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                "org.freedesktop.DBus", "GetConnectionUnixProcessID", parameters,
                nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, &error)
        else {
            // org.freedesktop.DBus.Error.NameHasNoOwner, mostly.
            g_clear_error(&error)
            return nil
        }
        defer { g_variant_unref(reply) }
        guard String(cString: g_variant_get_type_string(reply)) == "(u)", let value = g_variant_get_child_value(reply, 0) else {
            return nil
        }
        defer { g_variant_unref(value) }
        return g_variant_get_uint32(value)
    }

    /// The executable's path; an upgrade that replaced the file while it ran still counts as the same.
    private static func executable(of process: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/\(process)/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        var path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
        return path
    }
}
