import CAuthPlatform

/// A `GError` as a Swift value: its domain, code and message, taken out of the C struct, which is
/// freed right away. The one place a GError is turned into Swift.
struct GLibError: Error, Sendable, CustomStringConvertible {
    let domain: GQuark
    let code: Int32
    let message: String
    /// For an error a D-Bus peer sent (`org.freedesktop.Secret.Error.IsLocked`…), its name.
    let remoteName: String?

    /// Reads `error` and frees it.
    init(consuming error: UnsafeMutablePointer<GError>) {
        domain = error.pointee.domain
        code = error.pointee.code
        message = error.pointee.message.map { String(cString: $0) } ?? ""
        if let remote = g_dbus_error_get_remote_error(error) {
            remoteName = String(cString: remote)
            g_free(remote)
        } else {
            remoteName = nil
        }
        g_error_free(error)
    }

    /// Takes the error out of an out-parameter that a failed call filled; nil when it is empty.
    static func take(_ slot: inout UnsafeMutablePointer<GError>?) -> GLibError? {
        guard let error = slot else { return nil }
        slot = nil
        return GLibError(consuming: error)
    }

    func matches(_ domain: GQuark, _ code: Int32) -> Bool {
        self.domain == domain && self.code == code
    }

    var description: String { message }
}

/// A C pointer handed from one thread to GLib's main context. GLib objects are used only on that
/// context; this box only carries the address across, which the compiler cannot see is safe.
struct MainContextPointer<Pointee>: @unchecked Sendable {
    let pointer: Pointee
    init(_ pointer: Pointee) { self.pointer = pointer }
}
