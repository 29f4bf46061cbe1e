import CGLibSupport

/// A `GError` as a Swift value: its domain, code and message, taken out of the C struct, which is
/// freed right away. The one place a GError is turned into Swift, for every layer.
public struct GLibError: Error, Sendable, CustomStringConvertible {
    public let domain: GQuark
    public let code: Int32
    public let message: String
    /// For an error a D-Bus peer sent (`org.freedesktop.Secret.Error.IsLocked`…), its name.
    public let remoteName: String?

    /// Reads `error` and frees it.
    public init(consuming error: UnsafeMutablePointer<GError>) {
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
    public static func take(_ slot: inout UnsafeMutablePointer<GError>?) -> GLibError? {
        guard let error = slot else { return nil }
        slot = nil
        return GLibError(consuming: error)
    }

    public func matches(_ domain: GQuark, _ code: Int32) -> Bool {
        self.domain == domain && self.code == code
    }

    /// The same for a C enum of codes, as Swift imports them (`G_IO_ERROR_CANCELLED`, `G_TLS_ERROR_BAD_CERTIFICATE`…).
    public func matches<Code: RawRepresentable>(_ domain: GQuark, _ code: Code) -> Bool where Code.RawValue == UInt32 {
        self.domain == domain && UInt32(bitPattern: self.code) == code.rawValue
    }

    public var description: String { message }
}
