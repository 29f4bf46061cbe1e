import CSignInUI
import FoundationEssentials
import GLibSupport
import PortalAuthGNOME

/// A Preferences group of text settings (`<id>_group` in ui/preferences.ui): entry rows that save
/// their GSettings key on apply when the value is valid, a line under the rows (`<id>_problem`) that
/// says why a value was not saved, and a Reset button (`<id>_reset`) that returns every key of the
/// group the environment does not give to its default. A row whose value the environment gives
/// shows that value, locked.
@MainActor
final class SettingsGroup {
    /// One text setting: its row of the settings table, the id of its row in the layout, and the
    /// rule its value must meet (nil when the value may be saved, else what to fix).
    struct Field {
        let setting: Setting
        let row: String
        let check: (String) -> String?

        init(_ setting: Setting, row: String, check: @escaping (String) -> String?) {
            self.setting = setting
            self.row = row
            self.check = check
        }
    }

    private let widget: UnsafeMutablePointer<GtkWidget>
    fileprivate let settings: UnsafeMutablePointer<GSettings>
    private var rows: [SettingRow] = []
    private var resetButton: Widget
    /// A toast would cut a long message short; this label keeps it under the rows.
    private let problem: Widget
    private let otherKeys: [String]

    /// `otherKeys`: settings the group shows in other rows (a switch) that Reset also restores.
    init(
        _ layout: UILayout, id: String, fields: [Field], otherKeys: [Setting] = [], overrides: EnvironmentOverrides,
        settings: UnsafeMutablePointer<GSettings>, onReset: @escaping @MainActor () -> Void
    ) {
        self.settings = settings
        self.otherKeys = otherKeys.map(\.gsettingsKey)
        widget = layout.widget("\(id)_group")
        problem = Widget(layout.widget("\(id)_problem"))
        resetButton = Widget(layout.widget("\(id)_reset"))
        rows = fields.map { SettingRow($0, widget: layout.widget($0.row), locked: overrides.value(of: $0.setting), group: self) }
        resetButton.connect(.clicked) { [weak self] in
            self?.reset()
            onReset()
        }
    }

    var isVisible: Bool {
        get { gtk_widget_get_visible(widget) != 0 }
        set { gtk_widget_set_visible(widget, newValue ? 1 : 0) }
    }

    /// Shows (or, with nil, hides) why a field's value was not saved.
    fileprivate func showProblem(_ message: String?) {
        gtk_label_set_text(problem.widget.cast(), message ?? "")
        problem.isVisible = message != nil
    }

    private func reset() {
        let editable = rows.filter { !$0.isLocked }
        for key in editable.map(\.field.setting.gsettingsKey) + otherKeys { g_settings_reset(settings, key) }
        for row in editable { row.reload() }
    }
}

/// One text setting: an entry row that saves its key on apply when the value is valid, and marks
/// itself (and tells the user why) when it is not; or, when the environment gives the value, shows
/// it locked.
@MainActor
private final class SettingRow: Widget {
    let field: SettingsGroup.Field
    let isLocked: Bool
    private unowned let group: SettingsGroup

    init(_ field: SettingsGroup.Field, widget: UnsafeMutablePointer<GtkWidget>, locked: String?, group: SettingsGroup) {
        self.field = field
        self.group = group
        isLocked = locked != nil
        super.init(widget)
        if let locked {
            Locked.show(widget, value: locked)
            return
        }
        reload()
        connect(.apply) { [weak self] in self?.save() }
        connect(.changed) { [weak self] in self?.clearError() }
    }

    /// Shows the stored value.
    func reload() {
        let stored = g_settings_get_string(group.settings, field.setting.gsettingsKey)!
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
        g_settings_set_string(group.settings, field.setting.gsettingsKey, value)
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
