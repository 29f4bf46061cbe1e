import CSignInUI

/// A page with a spinner and a line of text ("Checking your saved session…").
@MainActor
final class StatusPage: StackPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let scaffold: PageScaffold

    init() {
        spinner = gtk_spinner_new()!
        gtk_widget_set_size_request(spinner, 48, 48)
        gtk_widget_set_halign(spinner, GTK_ALIGN_CENTER)
        scaffold = PageScaffold(icon: spinner, title: tr("One moment…"), description: "")
        root = scaffold.root
    }

    func show(_ text: String) {
        scaffold.description.text = text
    }

    /// The spinner turns only while the page is on screen.
    func setActive(_ active: Bool) {
        if active { gtk_spinner_start(spinner.cast()) } else { gtk_spinner_stop(spinner.cast()) }
    }
}
