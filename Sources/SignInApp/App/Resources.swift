import CSignInUI
import FoundationEssentials
import GLibSupport
import PortalAuthGNOME

/// The app's GResource bundle (stylesheet, window layouts, icons, brand marks), compiled into the program by the
/// GResourceEmbedder plugin. Registered before the application starts, so AdwApplication finds
/// style.css and style-dark.css under the app's resource base path, and GTK finds the icons.
enum Resources {
    /// A file of the bundle by its path under the app's resource base path (`ui/preferences.ui`).
    static func path(_ name: String) -> String { "/io/github/portalauth/SignIn/" + name }

    static func register() {
        guard let bundle = Data(base64Encoded: EmbeddedGResource.base64) else { return }
        let bytes = bundle.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        var error: UnsafeMutablePointer<GError>?
        guard let resource = g_resource_new_from_data(bytes, &error) else {
            let reason = GLibError.take(&error)?.message ?? ""
            StandardErrorLog(program: "portal-sign-in").log("the built-in resources could not be read (\(reason))")
            return
        }
        g_resources_register(resource)
        g_resource_unref(resource)
    }
}
