import CAuthPlatform
import FoundationEssentials
import GLibSupport

/// Who handles `io.github.portalauth.signin://` on this desktop. Any installed app can claim a
/// custom scheme and so collect every grant; the app checks that it is the default handler and can
/// make itself the default again.
public struct SchemeHandler: Sendable {
    /// The Portal Sign-In app's custom URL scheme (its redirect URL is `io.github.portalauth.signin://…`).
    public static let scheme = "io.github.portalauth.signin"
    /// The Portal Sign-In app's desktop file, which declares the scheme's MIME type.
    public static let appDesktopId = "io.github.portalauth.SignIn.desktop"

    /// The desktop file ID of the app that should handle the scheme.
    public let desktopId: String

    /// The scheme's handler as the app with `desktopId` sees it.
    public init(desktopId: String = SchemeHandler.appDesktopId) {
        self.desktopId = desktopId
    }

    private var contentType: String { "x-scheme-handler/\(Self.scheme)" }

    /// The display name of the default handler when it is another app; nil when it is this app or
    /// nothing handles the scheme (then the paste field is the way back).
    public func foreignHandlerName() -> String? {
        guard let info = g_app_info_get_default_for_type(contentType, 0) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        let id = g_app_info_get_id(info).map { String(cString: $0) }
        guard id != desktopId else { return nil }
        return g_app_info_get_display_name(info).map { String(cString: $0) } ?? id ?? "another app"
    }

    /// Makes this app the scheme's default handler (as `xdg-mime default` would).
    public func claim() throws {
        guard let info = g_desktop_app_info_new(desktopId) else {
            throw SchemeHandlerError(reason: "\(desktopId) is not installed")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        var error: UnsafeMutablePointer<GError>?
        if g_app_info_set_as_default_for_type(info, contentType, &error) == 0 {
            throw SchemeHandlerError(reason: GLibError.take(&error)?.message ?? "")
        }
    }
}

/// The app could not be made the scheme's default handler.
public struct SchemeHandlerError: Error, Sendable, CustomStringConvertible {
    /// Why: the desktop file is not installed, or GIO's words.
    public let reason: String
    /// `SchemeHandlerError(reason)`, for logs.
    public var description: String { "SchemeHandlerError(\(reason))" }
}
