import CSignInUI

/// A warning over the pages when another app is the default handler of the redirect scheme, or
/// another program holds the app's D-Bus name: that one, not this app, would receive the browser's
/// sign-in links (and their grants).
@MainActor
final class SchemeHandlerBanner {
    let root: UnsafeMutablePointer<GtkWidget>
    private let message: Label
    private var makeDefault: Button!

    var onMakeDefault: (@MainActor () -> Void)?

    /// The banner of the main window's layout (`ui/main-window.ui`).
    init(_ layout: UILayout) {
        root = layout.widget("scheme_banner")
        message = Label(layout.widget("scheme_message"))
        makeDefault = Button(layout.widget("make_default")) { [weak self] in self?.onMakeDefault?() }
    }

    /// Shows the banner naming the scheme's `owner` or the program holding the D-Bus name (which
    /// no button can fix: that program has to end), or hides it when both are nil.
    func show(owner: String?, busNameOwner: String? = nil) {
        if let busNameOwner {
            message.text = fill(
                tr(
                    "Another program (%s) holds Portal Sign-In’s name on the session bus, so sign-in links from the browser go to it instead of here. Quit that program, then start Portal Sign-In again."
                ), busNameOwner)
        } else if let owner {
            message.text = fill(
                tr("Sign-in links open in %s instead of Portal Sign-In, so signing in from the browser cannot finish here."), owner)
        }
        gtk_widget_set_visible(makeDefault.widget, busNameOwner == nil ? 1 : 0)
        let shown = owner != nil || busNameOwner != nil
        gtk_widget_set_visible(root, shown ? 1 : 0)
        gtk_revealer_set_reveal_child(root.cast(), shown ? 1 : 0)
    }
}
