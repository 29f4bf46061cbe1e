import CSignInUI
import FoundationEssentials
import GLibSupport
import PortalAuth
import PortalAuthGNOME
import SignInFlow
import TurnkeyAuth

/// "Set Up Portal Sign-In", shown instead of a sign-in that cannot work: no service has a default
/// ID, so until one is entered (or the local test environment chosen) nothing is sent anywhere. The
/// person picks the service, types the ID its administrator gave them, or turns on the local test
/// environment; Continue saves the choice to GSettings and the window moves on at once. Its layout
/// is `ui/set-up-page.ui`.
@MainActor
final class SetUpPage: StackPage {
    /// What Continue saves.
    struct Choice: Equatable {
        let backend: Backend
        /// The auth environment ID (Portal) or Auth Proxy config ID (Turnkey); nil with the local test environment.
        let id: String?
        let localTestEnvironment: Bool
    }

    let root: UnsafeMutablePointer<GtkWidget>
    private let scaffold: PageScaffold
    private let backendChoices: [(Backend, Widget)]
    private let idRow: Widget
    private let idList: UnsafeMutablePointer<GtkWidget>
    private let localSwitch: Widget
    private let problem: Label
    private var continueButton: Button!
    private let controls: UnsafeMutablePointer<GtkWidget>
    private var backend: Backend = .portal

    var onContinue: (@MainActor (Choice) -> Void)?

    init() {
        let layout = UILayout("ui/set-up-page.ui")
        scaffold = PageScaffold(layout)
        root = scaffold.root
        backendChoices = [(.portal, Widget(layout.widget("portal_choice"))), (.turnkey, Widget(layout.widget("turnkey_choice")))]
        idRow = Widget(layout.widget("id_row"))
        idList = layout.widget("id_list")
        localSwitch = Widget(layout.widget("local_switch"))
        problem = Label(layout.widget("problem"))
        controls = layout.widget("controls")
        continueButton = Button(layout.widget("continue")) { [weak self] in self?.submit() }

        for (backend, radio) in backendChoices {
            radio.connect(.toggled) { [weak self, weak radio] in
                guard let self, let radio, gtk_check_button_get_active(radio.widget.cast()) != 0 else { return }
                self.backend = backend
                self.update()
            }
        }
        idRow.connect(.changed) { [weak self] in self?.update() }
        idRow.connect(.entryActivated) { [weak self] in self?.submit() }
        localSwitch.connect(.notify(.active)) { [weak self] in self?.update() }
    }

    /// Shows the page for `backend` (the one the environment or Preferences chose so far). Without
    /// the GSettings schema nothing can be saved: the page then only says what to set.
    func show(backend: Backend, canSave: Bool) {
        self.backend = backend
        for (choice, radio) in backendChoices { gtk_check_button_set_active(radio.widget.cast(), choice == backend ? 1 : 0) }
        gtk_widget_set_visible(controls, canSave ? 1 : 0)
        scaffold.description.text =
            canSave
            ? tr("Choose the service your organization uses and enter the ID it gave you. You can change this later in Preferences.")
            : tr(
                "Portal Sign-In does not know where to sign you in. Set PORTAL_AUTH_ENVIRONMENT_ID (Portal) or TURNKEY_AUTH_PROXY_CONFIG_ID (Turnkey), or PORTAL_AUTH_EMULATOR_HOST for the local test environment, and start Portal Sign-In again."
            )
        update()
    }

    func focusFirst() { _ = gtk_widget_grab_focus(idRow.widget) }

    private var idText: String { String(cString: gtk_editable_get_text(idRow.widget.cast())).trimmed }
    private var local: Bool { gtk_switch_get_active(localSwitch.widget.cast()) != 0 }

    private func idProblem(_ id: String) -> String? {
        switch backend {
        case .portal: PortalAuth.isValidAuthEnvironmentId(id) ? nil : tr("An auth environment ID has no spaces.")
        case .turnkey: TurnkeyConfiguration.isValidIdentifier(id) ? nil : tr("IDs and session keys have no spaces.")
        }
    }

    private func update() {
        adw_preferences_row_set_title(
            idRow.widget.cast(),
            backend == .portal ? tr("Auth environment ID") : tr("Auth Proxy config ID"))
        gtk_widget_set_visible(idList, local ? 0 : 1)
        let id = idText
        let message = local || id.isEmpty ? nil : idProblem(id)
        problem.text = message ?? ""
        problem.isVisible = message != nil
        if message == nil { idRow.removeClass("error") } else { idRow.addClass("error") }
        continueButton.isSensitive = local || (!id.isEmpty && message == nil)
    }

    private func submit() {
        guard continueButton.isSensitive else { return }
        onContinue?(Choice(backend: backend, id: local ? nil : idText, localTestEnvironment: local))
    }
}

/// Writes the set-up page's choice to the app's GSettings, where Preferences shows it.
@MainActor
enum SetUpSettings {
    static func save(_ choice: SetUpPage.Choice) {
        guard PreferencesWindow.schemaInstalled else { return }
        let settings = g_settings_new(SettingsLocation.schemaId)!
        defer { g_object_unref(settings) }
        g_settings_set_string(settings, Setting.backend.gsettingsKey, choice.backend.rawValue)
        g_settings_set_boolean(settings, Setting.emulator.gsettingsKey, choice.localTestEnvironment ? 1 : 0)
        if let id = choice.id {
            let key = (choice.backend == .portal ? Setting.authEnvironmentId : .authProxyConfigId).gsettingsKey
            g_settings_set_string(settings, key, id)
        }
        g_settings_sync()
    }
}
