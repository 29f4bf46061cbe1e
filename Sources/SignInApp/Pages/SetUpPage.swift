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
/// environment; Continue saves the choice to GSettings and the window moves on at once.
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
    private var backendChoices: [(Backend, Widget)] = []
    private let idRow: Widget
    private let idList: UnsafeMutablePointer<GtkWidget>
    private let localSwitch: Widget
    private let problem = Label("", classes: ["error", "caption"])
    private var continueButton: Button!
    private var controls: UnsafeMutablePointer<GtkWidget>!
    private var backend: Backend = .portal

    var onContinue: (@MainActor (Choice) -> Void)?

    init() {
        scaffold = PageScaffold(
            icon: PageScaffold.icon("preferences-system-symbolic"),
            title: tr("Set Up Portal Sign-In"),
            description: tr(
                "Choose the service your organization uses and enter the ID it gave you. You can change this later in Preferences."))
        root = scaffold.root

        let services = gtk_list_box_new()!
        gtk_widget_add_css_class(services, "boxed-list")
        gtk_list_box_set_selection_mode(services.cast(), GTK_SELECTION_NONE)
        for choice in BackendChoiceRows.make(selected: nil) {
            backendChoices.append((choice.backend, choice.radio))
            gtk_list_box_append(services.cast(), choice.row)
        }

        idList = gtk_list_box_new()!
        gtk_widget_add_css_class(idList, "boxed-list")
        gtk_list_box_set_selection_mode(idList.cast(), GTK_SELECTION_NONE)
        idRow = Widget(adw_entry_row_new())
        gtk_list_box_append(idList.cast(), idRow.widget)

        let local = gtk_list_box_new()!
        gtk_widget_add_css_class(local, "boxed-list")
        gtk_list_box_set_selection_mode(local.cast(), GTK_SELECTION_NONE)
        let localRow = adw_action_row_new()!
        adw_preferences_row_set_title(localRow.cast(), tr("Local test environment"))
        adw_action_row_set_subtitle(
            localRow.cast(), tr("The auth emulator on this computer, for development and testing. No real accounts."))
        localSwitch = Widget(gtk_switch_new())
        gtk_widget_set_valign(localSwitch.widget, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(localRow.cast(), localSwitch.widget)
        adw_action_row_set_activatable_widget(localRow.cast(), localSwitch.widget)
        gtk_list_box_append(local.cast(), localRow)

        gtk_label_set_xalign(problem.widget.cast(), 0)
        problem.isVisible = false
        continueButton = Button(tr("_Continue"), classes: ["pill", "suggested-action"]) { [weak self] in self?.submit() }
        gtk_widget_set_halign(continueButton.widget, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_top(continueButton.widget, 12)
        controls = makeBox(
            GTK_ORIENTATION_VERTICAL, spacing: 12,
            children: [services, idList, local, problem.widget, continueButton.widget])
        append(scaffold.body, controls)

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
