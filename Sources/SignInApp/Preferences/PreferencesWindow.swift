import CSignInUI
import FoundationEssentials
import GLibSupport
import PortalAuthGNOME
import SignInFlow
import TurnkeyAuth

/// The Preferences window: which service the app signs in to, and where (the GSettings keys of
/// io.github.portalauth.SignIn). Its layout and words are `ui/preferences.ui` in the app's GResource;
/// this gives it behaviour. It shows what the window signs in with: only the chosen service's
/// settings, and a setting the environment gives as a locked row saying so. Text settings are saved
/// when the user applies them (Enter or the row's apply button) and only if they are valid, so a
/// half-typed URL never reaches a sign-in; choices and switches save at once. The application
/// watches GSettings and applies each change to the window at once (`SettingsWatch`).
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
    private let overrides = EnvironmentOverrides()
    private var backendChoices: [Widget] = []
    private var portalGroup: SettingsGroup!
    private var turnkeyGroup: SettingsGroup!

    private var gsettings: UnsafeMutablePointer<GSettings> { settings.object.assumingMemoryBound(to: GSettings.self) }

    private init(parent: UnsafeMutablePointer<GtkWindow>) {
        let layout = UILayout("ui/preferences.ui")
        window = Widget(layout.widget("window"))
        toasts = layout.widget("toasts")
        let created = g_settings_new(SettingsLocation.schemaId)!
        settings = GObjectRef(adopting: created.gpointer)
        g_object_unref(created.gpointer)

        gtk_window_set_transient_for(window.widget.cast(), parent)
        // One of the application's windows, so its shortcuts (Ctrl+W closes it) work here too.
        gtk_window_set_application(window.widget.cast(), gtk_window_get_application(parent))

        setUpBackendChoice(layout)
        portalGroup = makePortalGroup(layout)
        turnkeyGroup = makeTurnkeyGroup(layout)
        setUpSwitch(
            layout.widget("account_abstraction_switch"), row: layout.widget("account_abstraction_row"), .accountAbstracted,
            lockedOn: overrides.accountAbstracted)
        setUpSwitch(
            layout.widget("emulator_switch"), row: layout.widget("emulator_row"), .emulator, lockedOn: overrides.emulator)
        showSettings(of: backendInUse)

        window.connect(.closeRequest, after: false) { _ in
            // Let GTK close the window, then drop the wrappers once the emission is over.
            Task { @MainActor in PreferencesWindow.current = nil }
            return false
        }
    }

    // MARK: - Which service

    /// The service the window signs in to: the environment's, else the stored choice.
    private var backendInUse: Backend {
        overrides.backend ?? BackendChoice.resolve(environment: [:], settings: SettingsLocation.read()).backend
    }

    private func setUpBackendChoice(_ layout: UILayout) {
        let inUse = backendInUse
        for (backend, id) in [(Backend.portal, "portal"), (.turnkey, "turnkey")] {
            let radio = Widget(layout.widget("\(id)_choice"))
            gtk_check_button_set_active(radio.widget.cast(), backend == inUse ? 1 : 0)
            if overrides.backend != nil {
                Locked.show(layout.widget("\(id)_row"), control: radio.widget, saying: backend == inUse)
            } else {
                radio.connect(.toggled) { [weak self, weak radio] in
                    guard let self, let radio, gtk_check_button_get_active(radio.widget.cast()) != 0 else { return }
                    self.choose(backend)
                }
            }
            backendChoices.append(radio)
        }
    }

    private func choose(_ backend: Backend) {
        g_settings_set_string(gsettings, Setting.backend.gsettingsKey, backend.rawValue)
        showSettings(of: backend)
    }

    private func showSettings(of backend: Backend) {
        portalGroup.isVisible = backend == .portal
        turnkeyGroup.isVisible = backend == .turnkey
    }

    /// A switch bound to its key, or, when the environment decides, showing the environment's value, locked.
    private func setUpSwitch(
        _ toggle: UnsafeMutablePointer<GtkWidget>, row: UnsafeMutablePointer<GtkWidget>, _ setting: Setting, lockedOn: Bool?
    ) {
        if let lockedOn {
            gtk_switch_set_active(toggle.cast(), lockedOn ? 1 : 0)
            Locked.show(row, control: toggle, saying: true)
        } else {
            g_settings_bind(gsettings, setting.gsettingsKey, toggle.gpointer, "active", G_SETTINGS_BIND_DEFAULT)
        }
    }

    // MARK: - Each service's settings

    private func makePortalGroup(_ layout: UILayout) -> SettingsGroup {
        SettingsGroup(
            layout, id: "portal",
            fields: [
                .init(.apiHost, row: "api_host_row", check: SettingRules.portalHost),
                .init(.authEnvironmentId, row: "auth_environment_id_row", check: SettingRules.authEnvironmentId),
                .init(.redirectUrl, row: "redirect_url_row", check: SettingRules.redirectURL)
            ],
            otherKeys: overrides.accountAbstracted == nil ? [.accountAbstracted] : [], overrides: overrides, settings: gsettings,
            onReset: { [weak self] in self?.showToast(tr("Settings reset")) })
    }

    private func makeTurnkeyGroup(_ layout: UILayout) -> SettingsGroup {
        SettingsGroup(
            layout, id: "turnkey",
            fields: [
                .init(.authProxyUrl, row: "auth_proxy_url_row", check: SettingRules.turnkeyServiceURL),
                .init(.authProxyConfigId, row: "auth_proxy_config_id_row", check: SettingRules.turnkeyIdentifier),
                .init(.apiUrl, row: "api_url_row", check: SettingRules.turnkeyServiceURL),
                .init(.organizationId, row: "organization_id_row", check: SettingRules.turnkeyIdentifier),
                .init(.turnkeySessionKey, row: "turnkey_session_key_row", check: SettingRules.turnkeyIdentifier)
            ],
            overrides: overrides, settings: gsettings,
            onReset: { [weak self] in self?.showToast(tr("Settings reset")) })
    }

    private func showToast(_ message: String) {
        adw_toast_overlay_add_toast(toasts.cast(), adw_toast_new(message))
    }
}
