import CSignInUI

/// How Preferences shows a setting the environment gives: the row insensitive, saying so, so it
/// never disagrees with what the window signs in with.
@MainActor
enum Locked {
    static var words: String { tr("Set by the environment") }

    /// A choice or switch row and its `control`: the words as its subtitle when `saying` (only the
    /// chosen one of a group of choices says it). The control is made insensitive itself too, so
    /// assistive technology reads it as locked.
    static func show(_ row: UnsafeMutablePointer<GtkWidget>, control: UnsafeMutablePointer<GtkWidget>, saying: Bool) {
        if saying { adw_action_row_set_subtitle(row.cast(), words) }
        gtk_widget_set_sensitive(row, 0)
        gtk_widget_set_sensitive(control, 0)
    }

    /// A text row: the value in use, with the words beside it.
    static func show(_ row: UnsafeMutablePointer<GtkWidget>, value: String) {
        gtk_editable_set_text(row.cast(), value)
        let label = makeLabel(words, classes: ["dim-label", "caption"])
        gtk_label_set_max_width_chars(label.cast(), 14)
        gtk_label_set_justify(label.cast(), GTK_JUSTIFY_RIGHT)
        gtk_label_set_xalign(label.cast(), 1)
        adw_entry_row_add_suffix(row.cast(), label)
        gtk_widget_set_sensitive(row, 0)
        if let text = gtk_editable_get_delegate(row.cast()) { gtk_widget_set_sensitive(text.cast(), 0) }
    }
}
