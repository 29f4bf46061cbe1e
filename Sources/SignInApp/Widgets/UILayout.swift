import CSignInUI
import GLibSupport

/// A GtkBuilder file of the app's GResource (`ui/…`): a window's or a page's layout and words, built
/// when that window or page is. The Swift side finds its objects by id and gives them behaviour. The
/// layout can go once they are found: GTK keeps a window, and a page keeps its own root.
@MainActor
struct UILayout {
    let file: String
    private let builder: GObjectRef

    /// Builds `file` (`ui/main-window.ui`). GTK aborts on a file it cannot build: Tests/data builds
    /// every file in data/ui.
    init(_ file: String) {
        self.file = file
        let created = gtk_builder_new_from_resource(Resources.path(file))!
        builder = GObjectRef(adopting: created.gpointer)
        g_object_unref(created.gpointer)
    }

    /// The object with this id (a widget, a window, a menu); the file and the code name the same ones.
    func object(_ id: String) -> UnsafeMutableRawPointer {
        guard let object = gtk_builder_get_object(OpaquePointer(builder.object), id) else {
            preconditionFailure("\(file) has no object \(id)")
        }
        return UnsafeMutableRawPointer(object)
    }

    func widget(_ id: String) -> UnsafeMutablePointer<GtkWidget> {
        object(id).assumingMemoryBound(to: GtkWidget.self)
    }
}
