import CSignInUI
import SignInFlow

/// "Finish Signing In?": a sign-in link arrived that this app did not start, or started before it
/// last ended (or one that would replace the signed-in account). Nothing is sent until the person chooses Continue; Ignore drops
/// it and the grant stays unspent. Its layout is `ui/confirm-redirect-page.ui`.
@MainActor
final class ConfirmRedirectPage: StackPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let scaffold: PageScaffold
    private let detail: Label
    private var continueButton: Button!
    private var ignore: Button!

    var onContinue: (@MainActor () -> Void)?
    var onIgnore: (@MainActor () -> Void)?

    init() {
        let layout = UILayout("ui/confirm-redirect-page.ui")
        scaffold = PageScaffold(layout)
        root = scaffold.root
        detail = Label(layout.widget("detail"))
        ignore = Button(layout.widget("discard")) { [weak self] in self?.onIgnore?() }
        continueButton = Button(layout.widget("sign_in")) { [weak self] in self?.onContinue?() }
    }

    func show(_ confirm: ConfirmRedirect) {
        switch confirm.method {
        case .provider(let provider) where confirm.startedBeforeRestart:
            scaffold.description.text = fill(
                tr(
                    "A sign-in link from %s was opened. Portal Sign-In was closed while it waited for this sign-in, so it cannot tell that the link is yours. Sign in only if you just signed in yourself."
                ),
                provider.displayName)
        case .emailLink(let email?) where confirm.startedBeforeRestart:
            scaffold.description.text = fill(
                tr(
                    "An email sign-in link for %s was opened after Portal Sign-In was closed. Sign in only if you asked for this link yourself."
                ), email)
        case .emailLink(nil) where confirm.startedBeforeRestart:
            scaffold.description.text = tr(
                "An email sign-in link was opened after Portal Sign-In was closed. Sign in only if you asked for this link yourself.")
        case .provider(let provider):
            scaffold.description.text = fill(
                tr(
                    "A sign-in link from %s was opened, but this sign-in was not started from Portal Sign-In. Sign in only if you just signed in yourself."
                ),
                provider.displayName)
        case .emailLink(let email?):
            scaffold.description.text = fill(
                tr(
                    "An email sign-in link for %s was opened, but this sign-in was not started from Portal Sign-In. Sign in only if you asked for this link yourself."
                ), email)
        case .emailLink(nil):
            scaffold.description.text = tr(
                "An email sign-in link was opened, but this sign-in was not started from Portal Sign-In. Sign in only if you asked for this link yourself."
            )
        }
        if let account = confirm.replacesAccount {
            detail.text = fill(tr("Signing in replaces the account you are signed in with (%s)."), account.title)
            detail.isVisible = true
        } else {
            detail.text = ""
            detail.isVisible = false
        }
    }

    /// Ignore is the safe choice, so it has the focus.
    func focusFirst() { ignore.grabFocus() }
}
