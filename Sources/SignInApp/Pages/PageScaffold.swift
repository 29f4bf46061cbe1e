import CSignInUI

/// The common layout of every page: a scrollable, width-clamped column with an icon, a title and a
/// description on top, then the page's own controls in `body`.
@MainActor
struct PageScaffold {
    let root: UnsafeMutablePointer<GtkWidget>
    let body: UnsafeMutablePointer<GtkWidget>
    let title: Label
    let description: Label
    let icon: UnsafeMutablePointer<GtkWidget>

    init(icon: UnsafeMutablePointer<GtkWidget>, title titleText: String, description descriptionText: String) {
        self.icon = icon
        title = Label(titleText, classes: ["title-2"])
        description = Label(descriptionText, classes: ["dim-label", "page-description"])
        body = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 12)
        let column = makeBox(
            GTK_ORIENTATION_VERTICAL, spacing: 8, classes: ["page"],
            children: [icon, title.widget, description.widget, body])
        gtk_widget_set_valign(column, GTK_ALIGN_CENTER)
        gtk_widget_set_vexpand(column, 1)

        let clamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(OpaquePointer(clamp), 380)
        adw_clamp_set_child(OpaquePointer(clamp), column)

        root = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(root.cast(), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(root.cast(), clamp)
        gtk_widget_set_vexpand(root, 1)
    }

    /// A large themed icon for the top of a page.
    static func icon(_ name: String) -> UnsafeMutablePointer<GtkWidget> {
        makeIcon(name, size: 64, classes: ["page-icon"])
    }
}

/// A page of the main window's stack: its root widget goes into the stack.
@MainActor
protocol StackPage: AnyObject {
    var root: UnsafeMutablePointer<GtkWidget> { get }
}
