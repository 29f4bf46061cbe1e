import CSignInUI
import FoundationEssentials
import SignInFlow

/// "Sign in": a button per provider the backend enables (in a stable order: Google, Apple, Discord,
/// X), and an email field for a sign-in link where the backend offers one. Its layout is
/// `ui/sign-in-page.ui`.
@MainActor
final class SignInPage: StackPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let scaffold: PageScaffold
    private let providerBox: UnsafeMutablePointer<GtkWidget>
    private let emailSection: UnsafeMutablePointer<GtkWidget>
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
        let layout = UILayout("ui/sign-in-page.ui")
        scaffold = PageScaffold(layout)
        root = scaffold.root
        providerBox = layout.widget("provider_box")
        emailSection = layout.widget("email_section")
        email = Entry(layout.widget("email")) { [weak self] in self?.submitEmail() }
        sendLink = Button(layout.widget("send_link")) { [weak self] in self?.submitEmail() }
        email.onChange { [weak self] in self?.updateSendLink() }
        updateSendLink()
        back = Button(layout.widget("back")) { [weak self] in self?.onBack?() }
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
