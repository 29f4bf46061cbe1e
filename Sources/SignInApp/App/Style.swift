import CSignInUI
import FoundationEssentials

/// The light or dark style. The stylesheets themselves are data (style.css, style-dark.css in the
/// app's GResource), loaded by AdwApplication. The style follows the system (libadwaita reads the
/// Settings portal's color-scheme); PORTAL_COLOR_SCHEME=dark|light forces one, for screenshots and tests.
@MainActor
enum Style {
    static func apply() {
        let manager = adw_style_manager_get_default()
        switch ProcessInfo.processInfo.environment["PORTAL_COLOR_SCHEME"] {
        case "dark": adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_FORCE_DARK)
        case "light": adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_FORCE_LIGHT)
        default: adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_PREFER_LIGHT)
        }
    }
}
