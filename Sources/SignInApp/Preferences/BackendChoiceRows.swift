import CSignInUI
import SignInFlow

/// The "Portal" and "Turnkey" rows, a radio button each in one group: what the set-up page and
/// Preferences both offer to choose the service with.
@MainActor
enum BackendChoiceRows {
    struct Choice {
        let backend: Backend
        let row: UnsafeMutablePointer<GtkWidget>
        let radio: Widget
    }

    /// One row per backend; the `selected` one starts checked (none when nil).
    static func make(selected: Backend?) -> [Choice] {
        let choices: [(Backend, String, String)] = [
            (.portal, "Portal", tr("Google, Apple and email links, with a two-factor code")),
            (.turnkey, "Turnkey", tr("Google, Apple, Discord and X"))
        ]
        var first: UnsafeMutablePointer<GtkWidget>?
        var made: [Choice] = []
        for (backend, name, subtitle) in choices {
            let row = adw_action_row_new()!
            adw_preferences_row_set_title(row.cast(), name)
            adw_action_row_set_subtitle(row.cast(), subtitle)
            // No accessible label of its own: the row's title names it (GTK would read both).
            let radio = Widget(gtk_check_button_new())
            if let first { gtk_check_button_set_group(radio.widget.cast(), first.cast()) } else { first = radio.widget }
            if let selected { gtk_check_button_set_active(radio.widget.cast(), backend == selected ? 1 : 0) }
            gtk_widget_set_valign(radio.widget, GTK_ALIGN_CENTER)
            adw_action_row_add_prefix(row.cast(), radio.widget)
            adw_action_row_set_activatable_widget(row.cast(), radio.widget)
            made.append(Choice(backend: backend, row: row, radio: radio))
        }
        return made
    }
}
