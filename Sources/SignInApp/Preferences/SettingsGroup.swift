import CSignInUI
import FoundationEssentials
import GLibSupport
import PortalAuthGNOME

/// A Preferences group of text settings: entry rows that save their GSettings key on apply when the
/// value is valid, a line under the rows that says why a value was not saved, and a Reset button
/// that returns every key of the group to its default.
@MainActor
final class SettingsGroup {
    /// One text setting: its row of the settings table, the row's title and the rule its value must
    /// meet (nil when the value may be saved, else what to fix).
    struct Field {
        let key: String
        let title: String
        let check: (String) -> String?

        init(_ setting: Setting, title: String, check: @escaping (String) -> String?) {
            key = setting.gsettingsKey
            self.title = title
            self.check = check
        }
    }

    let widget: UnsafeMutablePointer<GtkWidget>
    fileprivate let settings: UnsafeMutablePointer<GSettings>
    private var rows: [SettingRow] = []
    private var resetButton: Button!
    /// A toast would cut a long message short; this label keeps it under the rows.
    private let problem = Label("", classes: ["error", "caption"])
    private let otherKeys: [String]

    /// `otherKeys`: settings the group shows in other rows (a switch) that Reset also restores.
    init(
        title: String, description: String, resetDescription: String, fields: [Field], otherKeys: [Setting] = [],
        settings: UnsafeMutablePointer<GSettings>, onReset: @escaping @MainActor () -> Void
    ) {
        self.settings = settings
        self.otherKeys = otherKeys.map(\.gsettingsKey)
        widget = adw_preferences_group_new()!
        adw_preferences_group_set_title(widget.cast(), title)
        adw_preferences_group_set_description(widget.cast(), description)
        resetButton = Button(tr("_Reset"), classes: ["flat"]) { [weak self] in
            self?.reset()
            onReset()
        }
        resetButton.setAccessibleDescription(resetDescription)
        gtk_widget_set_valign(resetButton.widget, GTK_ALIGN_CENTER)
        adw_preferences_group_set_header_suffix(widget.cast(), resetButton.widget)

        gtk_label_set_xalign(problem.widget.cast(), 0)
        gtk_label_set_justify(problem.widget.cast(), GTK_JUSTIFY_LEFT)
        gtk_widget_set_margin_top(problem.widget, 8)
        problem.isVisible = false

        rows = fields.map { SettingRow($0, group: self) }
        for row in rows { adw_preferences_group_add(widget.cast(), row.widget) }
    }

    /// Adds a row that is not a text setting (a switch) below the text rows.
    func add(_ row: UnsafeMutablePointer<GtkWidget>) {
        adw_preferences_group_add(widget.cast(), row)
    }

    /// Puts the problem line last; call once every row is in.
    func finish() {
        adw_preferences_group_add(widget.cast(), problem.widget) // not a row: goes below the list
    }

    var isVisible: Bool {
        get { gtk_widget_get_visible(widget) != 0 }
        set { gtk_widget_set_visible(widget, newValue ? 1 : 0) }
    }

    /// Shows (or, with nil, hides) why a field's value was not saved.
    fileprivate func showProblem(_ message: String?) {
        problem.text = message ?? ""
        problem.isVisible = message != nil
    }

    private func reset() {
        for key in rows.map(\.field.key) + otherKeys { g_settings_reset(settings, key) }
        for row in rows { row.reload() }
    }
}

/// One text setting: an entry row that saves its key on apply when the value is valid,
/// and marks itself (and tells the user why) when it is not.
@MainActor
private final class SettingRow: Widget {
    let field: SettingsGroup.Field
    private unowned let group: SettingsGroup

    init(_ field: SettingsGroup.Field, group: SettingsGroup) {
        self.field = field
        self.group = group
        super.init(adw_entry_row_new())
        adw_preferences_row_set_title(widget.cast(), field.title)
        adw_entry_row_set_show_apply_button(widget.cast(), 1)
        reload()
        connect(.apply) { [weak self] in self?.save() }
        connect(.changed) { [weak self] in self?.clearError() }
    }

    /// Shows the stored value.
    func reload() {
        let stored = g_settings_get_string(group.settings, field.key)!
        gtk_editable_set_text(widget.cast(), stored)
        g_free(stored)
        clearError()
    }

    private var text: String { String(cString: gtk_editable_get_text(widget.cast())) }

    private func save() {
        let value = text.trimmed
        if let problem = field.check(value) {
            addClass("error")
            setAccessibleDescription(problem)
            group.showProblem(problem)
            return
        }
        g_settings_set_string(group.settings, field.key, value)
        if value != text { gtk_editable_set_text(widget.cast(), value) }
        clearError()
    }

    private func clearError() {
        guard gtk_widget_has_css_class(widget, "error") != 0 else { return }
        removeClass("error")
        setAccessibleDescription("")
        group.showProblem(nil)
    }
}
