import CSignInUI
import FoundationEssentials
import SignInFlow

/// "Sign in": a button per provider the backend enables (in a stable order: Google, Apple, Discord,
/// X), and an email field for a sign-in link where the backend offers one.
@MainActor
final class SignInPage: StackPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let scaffold: PageScaffold
    private let providerBox: UnsafeMutablePointer<GtkWidget>
    private var emailSection: UnsafeMutablePointer<GtkWidget>!
    private var buttons: [SignInProvider: BrandButton] = [:]
    private var shown: [SignInProvider] = []
    private var email: Entry!
    private var sendLink: Button!
    private var back: Button!
    private var busy = false

    var onProvider: (@MainActor (SignInProvider) -> Void)?
    var onMagicLink: (@MainActor (String) -> Void)?
    var onBack: (@MainActor () -> Void)?

    init() {
        scaffold = PageScaffold(
            icon: PageScaffold.icon("system-users-symbolic"),
            title: tr("Sign In to Portal"),
            description: tr("Use your Google or Apple account, or get a sign-in link by email."))
        root = scaffold.root

        providerBox = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 12)
        gtk_box_set_homogeneous(providerBox.cast(), 1)

        let separator = makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["or-separator"])
        let left = gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)!
        let right = gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)!
        gtk_widget_set_hexpand(left, 1)
        gtk_widget_set_hexpand(right, 1)
        gtk_widget_set_valign(left, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(right, GTK_ALIGN_CENTER)
        append(separator, left, makeLabel(tr("or"), classes: ["dim-label"], wrap: false), right)

        email = Entry(placeholder: tr("you@example.com"), accessibleLabel: tr("Email address")) { [weak self] in
            self?.submitEmail()
        }
        gtk_entry_set_input_purpose(email.widget.cast(), GTK_INPUT_PURPOSE_EMAIL)
        sendLink = Button(tr("Email Me a Sign-In Link"), classes: ["pill"]) { [weak self] in self?.submitEmail() }
        email.onChange { [weak self] in self?.updateSendLink() }
        emailSection = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 12, children: [separator, email.widget, sendLink.widget])
        updateSendLink()

        back = Button(tr("_Back to Your Accounts"), classes: ["pill"]) { [weak self] in self?.onBack?() }
        gtk_widget_set_margin_top(back.widget, 12)
        append(scaffold.body, providerBox, emailSection, back.widget)
    }

    func show(_ state: SignInPageState) {
        if state.providers != shown { rebuildButtons(state.providers) }
        gtk_widget_set_visible(emailSection, state.offersEmailLinks ? 1 : 0)
        scaffold.title.text = state.backend == .turnkey ? tr("Sign In to Turnkey") : tr("Sign In to Portal")
        scaffold.description.text =
            state.offersEmailLinks
            ? tr("Use your Google or Apple account, or get a sign-in link by email.")
            : tr("Choose the account you want to sign in with.")
        back.isVisible = state.canGoBack
        setBusy(state.busy || state.waitingForKeyring)
    }

    /// Disables the controls while a request runs, so a double click starts nothing twice.
    private func setBusy(_ busy: Bool) {
        self.busy = busy
        for button in buttons.values { button.button.isSensitive = !busy }
        email.isSensitive = !busy
        updateSendLink()
    }

    func focusFirst() { shown.first.flatMap { buttons[$0] }?.button.grabFocus() }

    private func rebuildButtons(_ providers: [SignInProvider]) {
        for provider in shown { if let button = buttons[provider] { gtk_box_remove(providerBox.cast(), button.button.widget) } }
        buttons = [:]
        shown = providers.sorted()
        for provider in shown {
            let button = BrandButton(provider) { [weak self] in self?.onProvider?(provider) }
            buttons[provider] = button
            gtk_box_append(providerBox.cast(), button.button.widget)
        }
    }

    private func updateSendLink() { sendLink.isSensitive = !busy && isPlausibleEmail(email.text) }

    private func submitEmail() {
        let address = email.text.trimmed
        guard !busy, isPlausibleEmail(address) else { return }
        onMagicLink?(address)
    }

    private func isPlausibleEmail(_ text: String) -> Bool {
        let parts = text.trimmed.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasSuffix(".")
    }
}
