import CPortalUI
import SignInFlow

/// "Signed in": who is signed in (end user, client, account abstraction) and Sign out.
@MainActor
final class SignedInPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let endUser: Label
    private let client: Label
    private let abstraction: Label
    private var signOut: Button!

    var onSignOut: (@MainActor () -> Void)?

    init() {
        let scaffold = PageScaffold(icon: PageScaffold.icon("emblem-ok-symbolic"),
                                    title: tr("You're signed in"),
                                    description: tr("Your session is saved in your keyring, so you stay signed in next time."))
        root = scaffold.root
        endUser = Label("", classes: ["account-value"], wrap: false, selectable: true)
        client = Label("", classes: ["account-value"], wrap: false, selectable: true)
        abstraction = Label("", classes: [], wrap: false)

        let list = gtk_list_box_new()!
        gtk_list_box_set_selection_mode(list.cast(), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(list, "boxed-list")
        gtk_widget_add_css_class(list, "account-card")
        for (title, value) in [(tr("End user"), endUser), (tr("Client"), client), (tr("Account abstraction"), abstraction)] {
            // Heading above the value, so a full identifier fits the row.
            let name = makeLabel(title, classes: ["caption-heading", "dim-label"], wrap: false)
            gtk_widget_set_halign(name, GTK_ALIGN_START)
            gtk_label_set_wrap(value.widget.cast(), 1)
            gtk_label_set_wrap_mode(value.widget.cast(), PANGO_WRAP_CHAR)
            gtk_label_set_xalign(value.widget.cast(), 0)
            gtk_widget_set_halign(value.widget, GTK_ALIGN_START)
            let row = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 4, children: [name, value.widget])
            setMargins(row, 4)
            gtk_list_box_append(list.cast(), row)
        }
        signOut = Button(tr("_Sign Out"), classes: ["pill", "destructive-action"]) { [weak self] in self?.onSignOut?() }
        gtk_widget_set_margin_top(signOut.widget, 12)
        append(scaffold.body, list, signOut.widget)
    }

    func show(_ account: SignedInAccount) {
        endUser.text = account.endUserId
        client.text = account.clientId ?? tr("Unknown")
        switch account.isAccountAbstracted {
        case true?: abstraction.text = tr("On")
        case false?: abstraction.text = tr("Off")
        case nil: abstraction.text = tr("Unknown")
        }
        signOut.isSensitive = true
    }

    func setBusy(_ busy: Bool) { signOut.isSensitive = !busy }

    func focusFirst() { signOut.grabFocus() }
}
