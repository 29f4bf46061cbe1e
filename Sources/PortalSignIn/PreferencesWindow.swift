import CPortalUI
import Foundation
import PortalAuth
import PortalAuthGNOME

/// The Preferences window: where the app signs in (the GSettings keys of io.github.portalauth.SignIn).
/// Text settings are saved when the user applies them (Enter or the row's apply button) and only
/// if they are valid, so a half-typed host never reaches a sign-in; the switch saves at once.
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
              let schema = g_settings_schema_source_lookup(source, SettingsLocation.schemaId, 1) else { return false }
        g_settings_schema_unref(schema)
        return true
    }

    private let window: Widget
    private let settings: GObjectRef
    private var textRows: [SettingRow] = []
    private var resetButton: Button!
    /// Says under the fields why a value was not saved (a toast would cut a long message short).
    private let problem = Label("", classes: ["error", "caption"])

    private init(parent: UnsafeMutablePointer<GtkWindow>) {
        window = Widget(adw_preferences_window_new())
        let created = g_settings_new(SettingsLocation.schemaId)!
        settings = GObjectRef(adopting: created.gpointer)
        g_object_unref(created.gpointer)

        gtk_window_set_title(window.widget.cast(), tr("Preferences"))
        gtk_window_set_transient_for(window.widget.cast(), parent)
        gtk_window_set_modal(window.widget.cast(), 1)
        gtk_window_set_default_size(window.widget.cast(), 520, 560)
        adw_preferences_window_set_search_enabled(window.widget.cast(), 0)

        let page = adw_preferences_page_new()!
        adw_preferences_page_add(page.cast(), makeConnectionGroup().cast())
        adw_preferences_page_add(page.cast(), makeWalletGroup().cast())
        adw_preferences_window_add(window.widget.cast(), page.cast())

        window.connect("close-request", after: false) { _ in
            // Let GTK close the window, then drop the wrappers once the emission is over.
            Task { @MainActor in PreferencesWindow.current = nil }
            return false
        }
    }

    // MARK: - Groups

    private func makeConnectionGroup() -> UnsafeMutablePointer<GtkWidget> {
        let group = adw_preferences_group_new()!
        adw_preferences_group_set_title(group.cast(), tr("Portal API"))
        // One literal per message: xgettext cannot join Swift's `+`.
        adw_preferences_group_set_description(group.cast(), tr("Where Portal Sign-In signs you in. Leave a field empty to use the local auth emulator (127.0.0.1:8790, environment “local-dev”). The environment variables PORTAL_API_HOST, PORTAL_AUTH_ENVIRONMENT_ID and PORTAL_REDIRECT_URL take precedence. Changes apply the next time Portal Sign-In starts."))
        resetButton = Button(tr("_Reset"), classes: ["flat"]) { [weak self] in self?.resetAll() }
        resetButton.setAccessibleDescription(tr("Empties every field, so the local auth emulator is used"))
        gtk_widget_set_valign(resetButton.widget, GTK_ALIGN_CENTER)
        adw_preferences_group_set_header_suffix(group.cast(), resetButton.widget)

        gtk_label_set_xalign(problem.widget.cast(), 0)
        gtk_label_set_justify(problem.widget.cast(), GTK_JUSTIFY_LEFT)
        gtk_widget_set_margin_top(problem.widget, 8)
        problem.isVisible = false

        textRows = [
            SettingRow(key: "api-host", title: tr("API host"), validate: PreferencesWindow.checkHost, window: self),
            SettingRow(key: "auth-environment-id", title: tr("Auth environment ID"),
                       validate: PreferencesWindow.checkEnvironmentId, window: self),
            SettingRow(key: "redirect-url", title: tr("Redirect URL"),
                       validate: PreferencesWindow.checkRedirectURL, window: self),
        ]
        for row in textRows { adw_preferences_group_add(group.cast(), row.widget) }
        adw_preferences_group_add(group.cast(), problem.widget)   // not a row: goes below the list
        return group
    }

    private func makeWalletGroup() -> UnsafeMutablePointer<GtkWidget> {
        let group = adw_preferences_group_new()!
        adw_preferences_group_set_title(group.cast(), tr("Wallets"))
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(row.cast(), tr("Account abstraction"))
        adw_action_row_set_subtitle(row.cast(), tr(
            "Ask Portal for account-abstracted wallets. Only works if the auth environment supports it."))
        let toggle = gtk_switch_new()!
        gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(row.cast(), toggle)
        adw_action_row_set_activatable_widget(row.cast(), toggle)
        // No accessible label of its own: the row's title already names the switch (GTK would read both).
        g_settings_bind(settings.object.assumingMemoryBound(to: GSettings.self), "account-abstracted",
                        toggle.gpointer, "active", G_SETTINGS_BIND_DEFAULT)
        adw_preferences_group_add(group.cast(), row)
        return group
    }

    // MARK: - Saving

    fileprivate var gsettings: UnsafeMutablePointer<GSettings> { settings.object.assumingMemoryBound(to: GSettings.self) }

    fileprivate func showToast(_ message: String) {
        adw_preferences_window_add_toast(window.widget.cast(), adw_toast_new(message))
    }

    /// Shows (or, with nil, hides) why a field's value was not saved.
    fileprivate func showProblem(_ message: String?) {
        problem.text = message ?? ""
        problem.isVisible = message != nil
    }

    private func resetAll() {
        for key in ["api-host", "auth-environment-id", "redirect-url", "account-abstracted"] {
            g_settings_reset(gsettings, key)
        }
        for row in textRows { row.reload() }
        showToast(tr("Using the local auth emulator"))
    }

    // MARK: - Validation with the core's own rules: nil when the value may be saved, else what to fix

    static func checkHost(_ value: String) -> String? {
        if value.isEmpty { return nil }
        guard (try? PortalAuth.apiBaseURL(for: value)) != nil else {
            return tr("Enter a host name such as api.portalhq.io, optionally with https:// and a port. Plain http is only allowed to this computer (127.0.0.1 or localhost).")
        }
        return nil
    }

    static func checkEnvironmentId(_ value: String) -> String? {
        value.isEmpty || PortalAuth.isValidAuthEnvironmentId(value) ? nil : tr("An auth environment ID has no spaces.")
    }

    static func checkRedirectURL(_ value: String) -> String? {
        if value.isEmpty || PortalAuth.customScheme(of: value) == SchemeHandler.scheme { return nil }
        return tr("The redirect URL must start with io.github.portalauth.signin:// so that the browser comes back to this app.")
    }
}

/// One text setting: an entry row that saves its key on apply when the value is valid,
/// and marks itself (and tells the user why) when it is not.
@MainActor
private final class SettingRow: Widget {
    let key: String
    private let validate: (String) -> String?
    private unowned let window: PreferencesWindow

    init(key: String, title: String, validate: @escaping (String) -> String?, window: PreferencesWindow) {
        self.key = key
        self.validate = validate
        self.window = window
        super.init(adw_entry_row_new())
        adw_preferences_row_set_title(widget.cast(), title)
        adw_entry_row_set_show_apply_button(widget.cast(), 1)
        reload()
        connect("apply") { [weak self] in self?.save() }
        connect("changed") { [weak self] in self?.clearError() }
    }

    /// Shows the stored value.
    func reload() {
        let stored = g_settings_get_string(window.gsettings, key)!
        gtk_editable_set_text(widget.cast(), stored)
        g_free(stored)
        clearError()
    }

    private var text: String { String(cString: gtk_editable_get_text(widget.cast())) }

    private func save() {
        let value = text.trimmingCharacters(in: .whitespaces)
        if let problem = validate(value) {
            addClass("error")
            setAccessibleDescription(problem)
            window.showProblem(problem)
            return
        }
        g_settings_set_string(window.gsettings, key, value)
        if value != text { gtk_editable_set_text(widget.cast(), value) }
        clearError()
    }

    private func clearError() {
        guard gtk_widget_has_css_class(widget, "error") != 0 else { return }
        removeClass("error")
        setAccessibleDescription("")
        window.showProblem(nil)
    }
}
