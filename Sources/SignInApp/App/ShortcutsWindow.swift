import CSignInUI
import GLibSupport

/// The Keyboard Shortcuts window (`ui/shortcuts.ui`): built each time it is asked for, over the
/// window it was asked from, and gone once closed. GtkApplication's own help overlay would be built
/// with the main window and kept hidden; GTK 4.8 answers a screen reader that asks for a window past
/// the shown ones (the Sign Out question, just closed) with the app's last window, and crashes when
/// that one was never shown.
@MainActor
enum ShortcutsWindow {
    /// The one open, so asking again raises it instead of opening a second.
    private static var open: GObjectRef?

    static func present(over parent: UnsafeMutablePointer<GtkWindow>) {
        if let open, gtk_widget_get_visible(open.object.assumingMemoryBound(to: GtkWidget.self)) != 0 {
            gtk_window_present(open.object.assumingMemoryBound(to: GtkWindow.self))
            return
        }
        let object = UILayout("ui/shortcuts.ui").object("shortcuts")
        let window = object.assumingMemoryBound(to: GtkWindow.self)
        open = GObjectRef(adopting: object)
        gtk_window_set_transient_for(window, parent)
        // One of the application's windows, so its shortcuts (Ctrl+W closes it) work here too.
        gtk_window_set_application(window, gtk_window_get_application(parent))
        gtk_window_present(window)
    }
}
