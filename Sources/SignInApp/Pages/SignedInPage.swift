import CSignInUI
import FoundationEssentials
import GLibSupport
import SignInFlow

/// "Signed in": who is signed in (the facts the backend gives: end user, client, account
/// abstraction for Portal; organization, user, provider and session expiry for Turnkey), the other
/// signed-in accounts to switch to, Add Account where the backend keeps several, and Sign Out.
@MainActor
final class SignedInPage: StackPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let scaffold: PageScaffold
    private let accountList: UnsafeMutablePointer<GtkWidget>
    private let detailList: UnsafeMutablePointer<GtkWidget>
    private var accountButtons: [AccountToggle] = []
    private var detailRows: [UnsafeMutablePointer<GtkWidget>] = []
    private var valueLabels: [Label] = []
    private var addAccount: Button!
    private var signOut: Button!
    private var shown: SignedInPageState?

    var onSignOut: (@MainActor () -> Void)?
    var onAddAccount: (@MainActor () -> Void)?
    var onSwitch: (@MainActor (String) -> Void)?

    init() {
        scaffold = PageScaffold(
            icon: PageScaffold.icon("emblem-ok-symbolic"),
            title: tr("You're signed in"),
            description: tr("Your session is saved in your keyring, so you stay signed in next time."))
        root = scaffold.root

        accountList = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 0, classes: ["linked", "account-switcher"])
        portal_ui_set_accessible_label(accountList, tr("Signed-in accounts"))
        detailList = gtk_list_box_new()!
        gtk_list_box_set_selection_mode(detailList.cast(), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(detailList, "boxed-list")
        gtk_widget_add_css_class(detailList, "account-card")

        addAccount = Button(tr("_Add Account"), classes: ["pill"]) { [weak self] in self?.onAddAccount?() }
        addAccount.setAccessibleDescription(tr("Signs in with another account and keeps this one"))
        signOut = Button(tr("_Sign Out"), classes: ["pill", "destructive-action"]) { [weak self] in self?.onSignOut?() }
        gtk_widget_set_margin_top(addAccount.widget, 12)
        append(scaffold.body, accountList, detailList, addAccount.widget, signOut.widget)
    }

    func show(_ state: SignedInPageState) {
        guard state != shown else { return }
        shown = state
        showAccounts(state)
        showDetails(state.current.details)
        addAccount.isVisible = state.canAddAccounts
        signOut.setTitle(state.accounts.count > 1 ? fill(tr("_Sign Out of %s"), state.current.title) : tr("_Sign Out"))
    }

    func setBusy(_ busy: Bool) {
        signOut.isSensitive = !busy
        addAccount.isSensitive = !busy
    }

    func focusFirst() { signOut.grabFocus() }

    /// With several accounts, a group of toggle buttons, one per account: the one shown is checked
    /// (a check mark, and "checked" for screen readers); choosing another shows it.
    private func showAccounts(_ state: SignedInPageState) {
        for button in accountButtons { gtk_box_remove(accountList.cast(), button.widget) }
        accountButtons = []
        gtk_widget_set_visible(accountList, state.accounts.count > 1 ? 1 : 0)
        guard state.accounts.count > 1 else { return }
        for account in state.accounts {
            let button = AccountToggle(
                account, isShown: account.id == state.current.id,
                group: accountButtons.first
            ) { [weak self] in self?.onSwitch?(account.id) }
            accountButtons.append(button)
            gtk_box_append(accountList.cast(), button.widget)
        }
    }

    /// A heading above each value, so a full identifier fits the row.
    private func showDetails(_ details: [AccountDetail]) {
        for row in detailRows { gtk_list_box_remove(detailList.cast(), row) }
        detailRows = []
        valueLabels = []
        for detail in details {
            let (heading, value) = Self.words(for: detail)
            let name = makeLabel(heading, classes: ["caption-heading", "dim-label"], wrap: false)
            gtk_widget_set_halign(name, GTK_ALIGN_START)
            let valueLabel = Label(value, classes: ["account-value"], wrap: true, selectable: true)
            gtk_label_set_wrap_mode(valueLabel.widget.cast(), PANGO_WRAP_CHAR)
            gtk_label_set_xalign(valueLabel.widget.cast(), 0)
            gtk_widget_set_halign(valueLabel.widget, GTK_ALIGN_START)
            let row = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 4, children: [name, valueLabel.widget])
            setMargins(row, 4)
            gtk_list_box_append(detailList.cast(), row)
            // The list box wraps the box in a row: remember that row to remove it later.
            if let listRow = gtk_widget_get_parent(row) { detailRows.append(listRow) }
            valueLabels.append(valueLabel)
        }
    }

    static func words(for detail: AccountDetail) -> (heading: String, value: String) {
        switch detail {
        case .endUser(let id): return (tr("End user"), id)
        case .client(let id): return (tr("Client"), id ?? tr("Unknown"))
        case .accountAbstraction(let on):
            return (tr("Account abstraction"), on.map { $0 ? tr("On") : tr("Off") } ?? tr("Unknown"))
        case .organization(let id): return (tr("Organization"), id)
        case .user(let id): return (tr("User"), id)
        case .provider(let provider): return (tr("Signed in with"), provider.displayName)
        case .sessionExpires(let date): return (tr("Session renews before"), expiryText(date))
        }
    }

    /// The expiry in the person's locale, with the time (sessions last minutes to hours).
    private static func expiryText(_ date: Date) -> String {
        // In the local time zone, with the month named in the person's language ("1 December 2026,
        // 00:01:55"; %c would read "Tue Dec  1 00:01:55 2026" in the C locale).
        guard let local = g_date_time_new_from_unix_local(gint64(date.timeIntervalSince1970)) else { return "" }
        defer { g_date_time_unref(local) }
        guard let text = g_date_time_format(local, "%-d %B %Y, %H:%M:%S") else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }
}

/// One account of the switcher: its provider's mark, its name, and a check mark when shown.
@MainActor
private final class AccountToggle: Widget {
    private let onChoose: @MainActor () -> Void

    init(_ account: SignedInAccount, isShown: Bool, group: AccountToggle?, onChoose: @escaping @MainActor () -> Void) {
        self.onChoose = onChoose
        super.init(gtk_toggle_button_new())
        let content = makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 10)
        if let provider = account.provider {
            let mark = gtk_image_new_from_icon_name(provider.mark)!
            gtk_image_set_pixel_size(mark.cast(), 16)
            gtk_box_append(content.cast(), mark)
        }
        let title = makeLabel(account.title, wrap: false)
        gtk_label_set_ellipsize(title.cast(), PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_xalign(title.cast(), 0)
        gtk_widget_set_hexpand(title, 1)
        gtk_box_append(content.cast(), title)
        let check = makeIcon("object-select-symbolic", size: 16)
        gtk_widget_set_opacity(check, isShown ? 1 : 0) // keeps its space, so names stay aligned
        gtk_box_append(content.cast(), check)
        gtk_button_set_child(widget.cast(), content)
        addClass("account-toggle")
        setAccessibleLabel(account.title)
        setAccessibleDescription(isShown ? tr("The account shown below") : tr("Shows this account"))
        if let group { gtk_toggle_button_set_group(widget.cast(), group.widget.cast()) }
        gtk_toggle_button_set_active(widget.cast(), isShown ? 1 : 0)
        // Connected after the initial state, so only a person's choice switches.
        connect(.toggled) { [weak self] in
            guard let self, gtk_toggle_button_get_active(self.widget.cast()) != 0 else { return }
            self.onChoose()
        }
    }
}
