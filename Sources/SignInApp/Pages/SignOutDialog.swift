import CSignInUI
import GLibSupport
import SignInFlow

/// "Sign Out of …?": asked before a session leaves the keyring. Cancel is the default (Enter,
/// Escape and closing the dialog all keep the session); only Sign Out, styled destructive, ends it.
@MainActor
final class SignOutDialog {
    private let dialog: GObjectRef
    private static let cancel = "cancel"
    private static let signOut = "sign-out"

    /// Shows the question over `parent`; `onSignOut` runs once the person chose Sign Out. The
    /// window keeps the dialog until the next one.
    /// `name`: who is signed out, when the page could name them (an identifier would say nothing).
    init(over parent: UnsafeMutablePointer<GtkWidget>, name: String?, onSignOut: @escaping @MainActor () -> Void) {
        let widget = adw_message_dialog_new(
            parent.cast(), name.map { fill(tr("Sign Out of %s?"), $0) } ?? tr("Sign Out?"),
            tr("Your session leaves the keyring. You can sign in again at any time."))!
        dialog = GObjectRef(adopting: widget.gpointer)
        let message: UnsafeMutablePointer<AdwMessageDialog> = widget.cast()
        adw_message_dialog_add_response(message, Self.cancel, tr("_Cancel"))
        adw_message_dialog_add_response(message, Self.signOut, tr("_Sign Out"))
        adw_message_dialog_set_response_appearance(message, Self.signOut, ADW_RESPONSE_DESTRUCTIVE)
        adw_message_dialog_set_default_response(message, Self.cancel)
        adw_message_dialog_set_close_response(message, Self.cancel)
        dialog.connect(.response) { arguments in
            let response = arguments.pointer(0).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
            if response == Self.signOut { onSignOut() }
            return false
        }
        Self.nameButtonsOnce(widget)
        gtk_window_present(widget.cast())
    }

    /// libadwaita 1.2 gives each response button an accessible label on top of its label child, which
    /// GTK 4.8 reads as "_Cancel Cancel": the label child alone names it.
    private static func nameButtonsOnce(_ widget: UnsafeMutablePointer<GtkWidget>) {
        if portal_ui_is_a(widget.gpointer, gtk_button_get_type()) != 0 {
            gtk_accessible_reset_property(OpaquePointer(widget), GTK_ACCESSIBLE_PROPERTY_LABEL)
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            nameButtonsOnce(current)
            child = gtk_widget_get_next_sibling(current)
        }
    }

    /// Closes the question unanswered (the page it asked about went away).
    func close() { gtk_window_close(dialog.object.assumingMemoryBound(to: GtkWindow.self)) }
}
