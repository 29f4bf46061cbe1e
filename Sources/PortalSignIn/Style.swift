import CPortalUI
import Foundation

/// The app-wide stylesheet and the light/dark style.
/// The style follows the system (libadwaita reads the Settings portal's color-scheme);
/// PORTAL_COLOR_SCHEME=dark|light forces one, for screenshots and tests.
@MainActor
enum Style {
    static func install() {
        let provider = gtk_css_provider_new()!
        css.withCString { gtk_css_provider_load_from_data(provider, $0, -1) }
        gtk_style_context_add_provider_for_display(gdk_display_get_default(), OpaquePointer(provider),
                                                   guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(provider)

        let manager = adw_style_manager_get_default()
        switch ProcessInfo.processInfo.environment["PORTAL_COLOR_SCHEME"] {
        case "dark": adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_FORCE_DARK)
        case "light": adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_FORCE_LIGHT)
        default: adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_PREFER_LIGHT)
        }
    }

    static var isDark: Bool { adw_style_manager_get_dark(adw_style_manager_get_default()) != 0 }

    // One string per line, not a """ literal: xgettext reads Swift as C and trips over those.
    private static let css = [
        "/* Brand buttons: same size for both; colours from Google's and Apple's guidelines. */",
        "button.brand-button {",
        "    min-height: 40px;",
        "    padding: 0 12px;",
        "    border-radius: 20px;",
        "    box-shadow: none;",
        "    background-image: none;",
        "    font-weight: 500;",
        "    transition: background-color 150ms ease-out;",
        "}",
        "button.brand-button .brand-title { font-size: 14px; }",
        "button.brand-google { background-color: #FFFFFF; color: #1F1F1F; border: 1px solid #747775; }",
        "button.brand-google:hover { background-color: #F2F2F2; }",
        "button.brand-google:active { background-color: #E6E6E6; }",
        "button.brand-google.brand-dark { background-color: #131314; color: #E3E3E3; border-color: #8E918F; }",
        "button.brand-google.brand-dark:hover { background-color: #262627; }",
        "button.brand-google.brand-dark:active { background-color: #333335; }",
        "button.brand-apple { background-color: #000000; color: #FFFFFF; border: 1px solid #000000; }",
        "button.brand-apple:hover { background-color: #262626; border-color: #262626; }",
        "button.brand-apple:active { background-color: #3A3A3A; }",
        "button.brand-apple.brand-dark { background-color: #FFFFFF; color: #000000; border-color: #FFFFFF; }",
        "button.brand-apple.brand-dark:hover { background-color: #E8E8E8; border-color: #E8E8E8; }",
        "button.brand-apple.brand-dark:active { background-color: #D6D6D6; }",
        "",
        ".page { padding: 24px 32px 32px 32px; }",
        ".page-icon { color: @accent_color; margin-bottom: 6px; }",
        ".page-description { margin-bottom: 8px; }",
        ".or-separator { margin: 6px 0; }",
        ".or-separator label { font-size: 90%; }",
        "",
        ".error-banner {",
        "    background-color: @error_bg_color;",
        "    color: @error_fg_color;",
        "    padding: 8px 12px 8px 16px;",
        "}",
        ".error-banner button { color: @error_fg_color; background-color: alpha(currentColor, 0.15); }",
        ".error-banner button:hover { background-color: alpha(currentColor, 0.25); }",
        ".error-banner button.banner-action { padding: 4px 14px; border-radius: 99px; font-weight: bold; }",
        "",
        ".qr-frame { background-color: #FFFFFF; border-radius: 12px; padding: 0; }",
        ".totp-secret { font-family: monospace; font-size: 95%; }",
        "entry.code-entry { font-size: 22px; font-family: monospace; min-height: 48px; }",
        "entry.code-entry text { letter-spacing: 6px; }",
        ".inline-error { color: @error_color; }",
        "",
        ".account-card { padding: 4px 0; }",
        ".account-card row { padding: 8px 12px; }",
        ".account-value { font-family: monospace; font-size: 90%; }",
    ].joined(separator: "\n")
}
