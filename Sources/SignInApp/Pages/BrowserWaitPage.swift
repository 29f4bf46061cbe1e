import CSignInUI
import FoundationEssentials
import SignInFlow

/// "Continue in Your Browser": waits for the redirect; Cancel, Open again, Copy link, and a field to
/// paste the redirect link for browsers that do not hand custom schemes to the desktop.
@MainActor
final class BrowserWaitPage: StackPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private var cancel: Button!
    private var openAgain: Button!
    private var copyLink: Button!
    private var pasted: Entry!
    private var continueButton: Button!
    private let pasteProblem = Label("", classes: ["inline-error", "caption"])
    private let scaffold: PageScaffold

    var onCancel: (@MainActor () -> Void)?
    var onOpenAgain: (@MainActor () -> Void)?
    var onCopyLink: (@MainActor () -> Void)?
    var onPastedLink: (@MainActor (String) -> Void)?

    init() {
        // A still icon, not a spinner: the wait can last minutes, and a spinner redraws the window
        // every frame all that time (a whole core with software rendering).
        scaffold = PageScaffold(
            icon: PageScaffold.icon("web-browser-symbolic"), title: tr("Continue in Your Browser"),
            description: tr("Finish signing in on the page that opened in your browser. You will come back here automatically."))
        root = scaffold.root
        // Firefox asks before it opens an app for a link ("Open Link"); Chromium asks too.
        let browserAsks = makeLabel(tr("Your browser may ask to open Portal Sign-In: allow it."), classes: ["dim-label"])

        openAgain = Button(tr("_Open Again"), classes: ["pill", "suggested-action"]) { [weak self] in self?.onOpenAgain?() }
        copyLink = Button(tr("_Copy Link"), classes: ["pill"]) { [weak self] in self?.onCopyLink?() }
        copyLink.setAccessibleDescription(tr("Copies the sign-in page’s address, to open it in another browser"))
        cancel = Button(tr("Cancel"), classes: ["pill"]) { [weak self] in self?.onCancel?() }
        cancel.setAccessibleDescription(tr("Stops waiting for the browser (Escape)"))
        let actions = makeBox(
            GTK_ORIENTATION_VERTICAL, spacing: 12,
            children: [openAgain.widget, copyLink.widget, cancel.widget])

        let hint = makeLabel(
            tr("Browser did not come back? Paste the address it ended on:"),
            classes: ["dim-label", "caption"])
        pasted = Entry(
            placeholder: "io.github.portalauth.signin://auth/callback?…",
            accessibleLabel: tr("Redirect link from the browser")
        ) { [weak self] in self?.submitPasted() }
        gtk_widget_set_hexpand(pasted.widget, 1)
        continueButton = Button(tr("Continue"), classes: []) { [weak self] in self?.submitPasted() }
        continueButton.setAccessibleDescription(tr("Signs in with the pasted link"))
        pasted.onChange { [weak self] in self?.updateContinue() }
        let pasteRow = makeBox(
            GTK_ORIENTATION_HORIZONTAL, spacing: 6, classes: ["linked"],
            children: [pasted.widget, continueButton.widget])
        updateContinue()
        gtk_label_set_xalign(pasteProblem.widget.cast(), 0)
        pasteProblem.isVisible = false
        let fallback = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 6, children: [hint, pasteRow, pasteProblem.widget])
        gtk_widget_set_margin_top(fallback, 12)
        append(scaffold.body, browserAsks, actions, fallback)
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
