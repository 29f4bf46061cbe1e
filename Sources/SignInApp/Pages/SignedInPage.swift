import CSignInUI
import FoundationEssentials
import GLibSupport
import SignInFlow

/// "Signed in": who is signed in, to which app and where, and the wallets' addresses (each with a
/// copy button), as the backend's profile says; the identifiers (end user, client, organization,
/// session expiry) in a Details expander. The other signed-in accounts to switch to, Add Account
/// where the backend keeps several, and Sign Out, which asks first (the window's dialog). Its layout
/// is `ui/signed-in-page.ui`.
@MainActor
final class SignedInPage: StackPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let scaffold: PageScaffold
    private let accountList: UnsafeMutablePointer<GtkWidget>
    private let profileList: FactList
    private let walletHeading: UnsafeMutablePointer<GtkWidget>
    private let walletList: FactList
    private let detailList: FactList
    private let details: UnsafeMutablePointer<GtkWidget>
    private var accountButtons: [AccountToggle] = []
    private var addAccount: Button!
    private var signOut: Button!
    private var shown: SignedInPageState?

    var onSignOut: (@MainActor (SignedInAccount) -> Void)?
    var onAddAccount: (@MainActor () -> Void)?
    var onSwitch: (@MainActor (String) -> Void)?
    var onCopyAddress: (@MainActor (String) -> Void)?
    var onReloadProfile: (@MainActor () -> Void)?

    init() {
        let layout = UILayout("ui/signed-in-page.ui")
        scaffold = PageScaffold(layout)
        root = scaffold.root
        accountList = layout.widget("account_list")
        profileList = FactList(layout.widget("profile_list"))
        walletHeading = layout.widget("wallet_heading")
        walletList = FactList(layout.widget("wallet_list"))
        details = layout.widget("details")
        detailList = FactList(layout.widget("detail_list"))
        addAccount = Button(layout.widget("add_account")) { [weak self] in self?.onAddAccount?() }
        signOut = Button(layout.widget("sign_out")) { [weak self] in
            if let account = self?.shown?.current { self?.onSignOut?(account) }
        }
    }

    func show(_ state: SignedInPageState) {
        guard state != shown else { return }
        let sameAccount = shown?.current.id == state.current.id
        shown = state
        showAccounts(state)
        showProfile(state.profile, account: state.current)
        detailList.replace(with: Self.identifiers(state.current.details, besides: state.profile).map { Self.words(for: $0) })
        if !sameAccount { gtk_expander_set_expanded(details.cast(), 0) }
        addAccount.isVisible = state.canAddAccounts
    }

    func setBusy(_ busy: Bool) {
        signOut.isSensitive = !busy
        addAccount.isSensitive = !busy
    }

    /// Nothing that ends a session has the focus: Details does (Enter only opens it), Sign Out never.
    func focusFirst() {
        _ = gtk_widget_grab_focus(details)
    }

    /// Who and where first, then the wallets; a lookup still running or failed says so in their place.
    private func showProfile(_ lookup: ProfileLookup, account: SignedInAccount) {
        walletList.clear()
        switch lookup {
        case .loading:
            profileList.replace(with: [(tr("Account"), tr("Loading…"))])
            setWalletsVisible(false)
        case .failed(let message):
            profileList.replace(with: [(tr("The account’s details could not be loaded"), message)])
            profileList.appendAction(tr("_Try Again")) { [weak self] in self?.onReloadProfile?() }
            setWalletsVisible(false)
        case .loaded(let profile):
            profileList.replace(with: Self.facts(of: profile))
            if let addresses = profile.addresses {
                setWalletsVisible(true)
                if addresses.isEmpty { walletList.replace(with: [(tr("No wallet yet"), tr("This account has no wallet address yet."))]) }
                for wallet in addresses {
                    walletList.appendAddress(
                        heading: Self.chainName(wallet.chain), wallet: wallet,
                        copyLabel: fill(tr("Copy %s address"), Self.chainName(wallet.chain))
                    ) { [weak self] in self?.onCopyAddress?(wallet.address) }
                }
            } else {
                setWalletsVisible(false)
            }
        }
        profileList.isVisible = !profileList.isEmpty
    }

    private func setWalletsVisible(_ visible: Bool) {
        gtk_widget_set_visible(walletHeading, visible ? 1 : 0)
        walletList.isVisible = visible
    }

    /// The profile's lines, in order: the app and where it runs, then the person and how they sign in.
    static func facts(of profile: AccountProfile) -> [(heading: String, value: String)] {
        var lines: [(String, String)] = []
        if let app = profile.appName { lines.append((tr("App"), app)) }
        if let environment = profile.environment { lines.append((tr("Environment"), environment)) }
        if let person = profile.person { lines.append((tr("Signed in as"), person)) }
        if let organization = profile.organization { lines.append((tr("Organization"), organization)) }
        if let provider = profile.provider { lines.append((tr("Signed in with"), provider.displayName)) }
        return lines
    }

    /// The details the profile does not show already (Turnkey's organization and provider).
    static func identifiers(_ details: [AccountDetail], besides lookup: ProfileLookup) -> [AccountDetail] {
        guard case .loaded(let profile) = lookup else { return details }
        return details.filter { detail in
            switch detail {
            case .organization: return profile.organization == nil
            case .provider: return profile.provider == nil
            default: return true
            }
        }
    }

    static func chainName(_ chain: WalletAddress.Chain) -> String {
        switch chain {
        case .evm: return "EVM"
        case .solana: return "Solana"
        case .other(let name): return name
        }
    }

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
