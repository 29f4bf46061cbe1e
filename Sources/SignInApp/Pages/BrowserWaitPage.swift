import CSignInUI
import FoundationEssentials
import SignInFlow

/// "Continue in Your Browser": waits for the redirect; Cancel, Open again, Copy link, and a field to
/// paste the redirect link for browsers that do not hand custom schemes to the desktop. Its layout
/// is `ui/browser-wait-page.ui`.
@MainActor
final class BrowserWaitPage: StackPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private var cancel: Button!
    private var openAgain: Button!
    private var copyLink: Button!
    private var pasted: Entry!
    private var continueButton: Button!
    private let pasteProblem: Label
    private let scaffold: PageScaffold

    var onCancel: (@MainActor () -> Void)?
    var onOpenAgain: (@MainActor () -> Void)?
    var onCopyLink: (@MainActor () -> Void)?
    var onPastedLink: (@MainActor (String) -> Void)?

    init() {
        let layout = UILayout("ui/browser-wait-page.ui")
        scaffold = PageScaffold(layout)
        root = scaffold.root
        pasteProblem = Label(layout.widget("paste_problem"))
        openAgain = Button(layout.widget("open_again")) { [weak self] in self?.onOpenAgain?() }
        copyLink = Button(layout.widget("copy_link")) { [weak self] in self?.onCopyLink?() }
        cancel = Button(layout.widget("cancel")) { [weak self] in self?.onCancel?() }
        pasted = Entry(layout.widget("pasted")) { [weak self] in self?.submitPasted() }
        continueButton = Button(layout.widget("continue")) { [weak self] in self?.submitPasted() }
        pasted.onChange { [weak self] in self?.updateContinue() }
        updateContinue()
    }

    /// A new wait: the page as it first appears.
    func enter(provider: SignInProvider) {
        scaffold.description.text = fill(
            tr("Finish signing in with %s on the page that opened in your browser. You will come back here automatically."),
            provider.displayName)
        pasted.text = ""
        show(pasteProblem: nil)
    }

    /// Why the pasted text was not taken (the sign-in keeps waiting); nil hides it.
    func show(pasteProblem problem: PasteProblem?) {
        switch problem {
        case .notASignInLink?:
            pasteProblem.text = tr("That is not a sign-in link for Portal Sign-In. Paste the whole address the browser ended on.")
        case .anotherSignIn?:
            pasteProblem.text = tr("That link is for another sign-in, not the one this window is waiting for.")
        case nil:
            pasteProblem.text = ""
        }
        pasteProblem.isVisible = problem != nil
        pasted.setAccessibleDescription(pasteProblem.text)
    }

    func focusFirst() { cancel.grabFocus() }

    private func updateContinue() { continueButton.isSensitive = !pasted.text.trimmed.isEmpty }

    private func submitPasted() {
        let link = pasted.text.trimmed
        guard !link.isEmpty else { return }
        onPastedLink?(link)
    }
}
