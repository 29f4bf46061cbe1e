import CSignInUI
import FoundationEssentials
import GLibSupport
import PortalAuthGNOME
import SignInFlow
import TurnkeyAuth

/// The Preferences window: which service the app signs in to, and where (the GSettings keys of
/// io.github.portalauth.SignIn). Only the chosen service's settings show. Text settings are saved
/// when the user applies them (Enter or the row's apply button) and only if they are valid, so a
/// half-typed URL never reaches a sign-in; choices and switches save at once.
///
/// A window of its own (AdwWindow: a header bar over the page, with toasts) on every libadwaita:
/// AdwPreferencesWindow is deprecated since 1.6, and AdwPreferencesDialog (1.5) does not exist on 1.2.
@MainActor
final class PreferencesWindow {
    /// The open window, if any: the menu item presents it instead of opening a second one.
    private static var current: PreferencesWindow?

    /// The app's Preferences hook, or nil when the schema is not installed (no menu item then).
    static func presenter() -> (@MainActor (UnsafeMutablePointer<GtkWindow>) -> Void)? {
        guard schemaInstalled else { return nil }
        return { parent in present(over: parent) }
    }

    /// Opens (or raises) the Preferences window over `parent`. Does nothing when the schema is not installed.
    static func present(over parent: UnsafeMutablePointer<GtkWindow>) {
        if let current {
            gtk_window_present(current.window.widget.cast())
            return
        }
        guard schemaInstalled else { return }
        let preferences = PreferencesWindow(parent: parent)
        current = preferences
        gtk_window_present(preferences.window.widget.cast())
    }

    /// g_settings_new aborts on a missing schema, so look first.
    static var schemaInstalled: Bool {
        guard let source = g_settings_schema_source_get_default(),
            let schema = g_settings_schema_source_lookup(source, SettingsLocation.schemaId, 1)
        else { return false }
        g_settings_schema_unref(schema)
        return true
    }

    private let window: Widget
    private let toasts: UnsafeMutablePointer<GtkWidget>
    private let settings: GObjectRef
    private var backendChoices: [(Backend, Widget)] = []
    private var portalGroups: [SettingsGroup] = []
    private var turnkeyGroups: [SettingsGroup] = []

    private var gsettings: UnsafeMutablePointer<GSettings> { settings.object.assumingMemoryBound(to: GSettings.self) }

    private init(parent: UnsafeMutablePointer<GtkWindow>) {
        window = Widget(adw_window_new())
        toasts = adw_toast_overlay_new()!
        let created = g_settings_new(SettingsLocation.schemaId)!
        settings = GObjectRef(adopting: created.gpointer)
        g_object_unref(created.gpointer)

        gtk_window_set_title(window.widget.cast(), tr("Preferences"))
        gtk_window_set_transient_for(window.widget.cast(), parent)
        gtk_window_set_modal(window.widget.cast(), 1)
        gtk_window_set_default_size(window.widget.cast(), 560, 720)

        portalGroups = [makePortalGroup()]
        turnkeyGroups = [makeTurnkeyGroup()]
        let page = adw_preferences_page_new()!
        adw_preferences_page_add(page.cast(), makeBackendGroup().cast())
        for group in portalGroups + turnkeyGroups { adw_preferences_page_add(page.cast(), group.widget.cast()) }
        adw_preferences_page_add(page.cast(), makeTestingGroup().cast())
        gtk_widget_set_vexpand(page, 1)
        adw_toast_overlay_set_child(toasts.cast(), page)
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(content.cast(), adw_header_bar_new())
        gtk_box_append(content.cast(), toasts)
        adw_window_set_content(window.widget.cast(), content)
        // Escape closes it, as it closes AdwPreferencesWindow.
        let escape = gtk_shortcut_new(
            gtk_keyval_trigger_new(guint(GDK_KEY_Escape), GdkModifierType(rawValue: 0)),
            gtk_named_action_new("window.close"))
        let shortcuts = gtk_shortcut_controller_new()!
        gtk_shortcut_controller_add_shortcut(shortcuts, escape)
        gtk_widget_add_controller(window.widget, shortcuts)
        showSettings(of: storedBackend)

        window.connect(.closeRequest, after: false) { _ in
            // Let GTK close the window, then drop the wrappers once the emission is over.
            Task { @MainActor in PreferencesWindow.current = nil }
            return false
        }
    }

    // MARK: - Which service

    private var storedBackend: Backend {
        let raw = g_settings_get_string(gsettings, Setting.backend.gsettingsKey)!
        defer { g_free(raw) }
        return Backend(rawValue: String(cString: raw)) ?? .portal
    }

    private func makeBackendGroup() -> UnsafeMutablePointer<GtkWidget> {
        let group = adw_preferences_group_new()!
        adw_preferences_group_set_title(group.cast(), tr("Sign-In Service"))
        adw_preferences_group_set_description(
            group.cast(),
            tr(
                "The service Portal Sign-In signs you in to. The PORTAL_SIGN_IN_BACKEND environment variable takes precedence. Changes apply the next time Portal Sign-In starts."
            ))
        for choice in BackendChoiceRows.make(selected: storedBackend) {
            let (backend, row, radio) = (choice.backend, choice.row, choice.radio)
            radio.connect(.toggled) { [weak self, weak radio] in
                guard let self, let radio, gtk_check_button_get_active(radio.widget.cast()) != 0 else { return }
                self.choose(backend)
            }
            backendChoices.append((backend, radio))
            adw_preferences_group_add(group.cast(), row)
        }
        return group
    }

    /// The local auth emulator instead of the service: the switch the set-up page's choice turns on.
    /// Last on the page, below the service's own settings, which it does not hide.
    private func makeTestingGroup() -> UnsafeMutablePointer<GtkWidget> {
        let group = adw_preferences_group_new()!
        adw_preferences_group_set_title(group.cast(), tr("Testing"))
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(row.cast(), tr("Local test environment"))
        adw_action_row_set_subtitle(
            row.cast(),
            tr(
                "Sign in to the auth emulator on this computer instead of the service, for development and testing. Fields you fill in above still take precedence. PORTAL_AUTH_EMULATOR_HOST chooses it too."
            ))
        let toggle = gtk_switch_new()!
        gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(row.cast(), toggle)
        adw_action_row_set_activatable_widget(row.cast(), toggle)
        // No accessible label of its own: the row's title already names the switch (GTK would read both).
        g_settings_bind(gsettings, Setting.emulator.gsettingsKey, toggle.gpointer, "active", G_SETTINGS_BIND_DEFAULT)
        adw_preferences_group_add(group.cast(), row)
        return group
    }

    private func choose(_ backend: Backend) {
        g_settings_set_string(gsettings, Setting.backend.gsettingsKey, backend.rawValue)
        showSettings(of: backend)
    }

    private func showSettings(of backend: Backend) {
        for group in portalGroups { group.isVisible = backend == .portal }
        for group in turnkeyGroups { group.isVisible = backend == .turnkey }
    }

    // MARK: - Each service's settings

    private func makePortalGroup() -> SettingsGroup {
        // One literal per message: xgettext cannot join Swift's `+`.
        let group = SettingsGroup(
            title: tr("Portal API"),
            description: tr(
                "Where Portal Sign-In signs you in. The auth environment ID comes from your Portal administrator; an empty API host means Portal’s own, api.portalhq.io. The environment variables PORTAL_API_HOST, PORTAL_AUTH_ENVIRONMENT_ID and PORTAL_REDIRECT_URL take precedence. Changes apply the next time Portal Sign-In starts."
            ),
            resetDescription: tr("Empties every field, so Portal’s own defaults are used"),
            fields: [
                .init(.apiHost, title: tr("API host"), check: SettingRules.portalHost),
                .init(.authEnvironmentId, title: tr("Auth environment ID"), check: SettingRules.authEnvironmentId),
                .init(.redirectUrl, title: tr("Redirect URL"), check: SettingRules.redirectURL)
            ],
            otherKeys: [.accountAbstracted], settings: gsettings,
            onReset: { [weak self] in self?.showToast(tr("Settings reset")) })
        group.add(makeLoopbackRow())
        group.add(makeAccountAbstractionRow())
        group.finish()
        return group
    }

    /// When to choose a loopback redirect URL; the Redirect URL row above takes it.
    private func makeLoopbackRow() -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(row.cast(), tr("Loopback redirect"))
        adw_action_row_set_subtitle(
            row.cast(),
            tr(
                "On a computer shared with other people, enter the http://127.0.0.1:PORT/PATH address your environment allows as the redirect URL: the sign-in then comes back to this app alone, not through the desktop."
            ))
        return row
    }

    private func makeAccountAbstractionRow() -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(row.cast(), tr("Account abstraction"))
        adw_action_row_set_subtitle(
            row.cast(),
            tr(
                "Ask Portal for account-abstracted wallets. Only works if the auth environment supports it."))
        let toggle = gtk_switch_new()!
        gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(row.cast(), toggle)
        adw_action_row_set_activatable_widget(row.cast(), toggle)
        // No accessible label of its own: the row's title already names the switch (GTK would read both).
        g_settings_bind(gsettings, Setting.accountAbstracted.gsettingsKey, toggle.gpointer, "active", G_SETTINGS_BIND_DEFAULT)
        return row
    }

    private func makeTurnkeyGroup() -> SettingsGroup {
        let group = SettingsGroup(
            title: tr("Turnkey"),
            description: tr(
                "Where Portal Sign-In signs you in to Turnkey. The Auth Proxy config ID comes from your Turnkey dashboard; empty URLs mean Turnkey’s own, https://authproxy.turnkey.com and https://api.turnkey.com. The TURNKEY_… environment variables take precedence. Changes apply the next time Portal Sign-In starts."
            ),
            resetDescription: tr("Empties every field, so Turnkey’s own defaults are used"),
            fields: [
                .init(.authProxyUrl, title: tr("Auth Proxy URL"), check: SettingRules.turnkeyServiceURL),
                .init(.authProxyConfigId, title: tr("Auth Proxy config ID"), check: SettingRules.turnkeyIdentifier),
                .init(.apiUrl, title: tr("API URL"), check: SettingRules.turnkeyServiceURL),
                .init(.organizationId, title: tr("Organization ID"), check: SettingRules.turnkeyIdentifier),
                .init(.turnkeySessionKey, title: tr("Session key"), check: SettingRules.turnkeyIdentifier)
            ],
            settings: gsettings,
            onReset: { [weak self] in self?.showToast(tr("Settings reset")) })
        group.finish()
        return group
    }

    private func showToast(_ message: String) {
        adw_toast_overlay_add_toast(toasts.cast(), adw_toast_new(message))
    }
}
