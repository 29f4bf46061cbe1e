import CSignInUI

/// "Check Your Email": the magic link is on its way; opening it on this computer signs in.
@MainActor
final class EmailSentPage: StackPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let scaffold: PageScaffold
    private var back: Button!
    private var resend: Button!

    var onBack: (@MainActor () -> Void)?
    var onResend: (@MainActor () -> Void)?

    init() {
        scaffold = PageScaffold(
            icon: PageScaffold.icon("mail-unread-symbolic"),
            title: tr("Check Your Email"), description: "")
        root = scaffold.root
        let hint = makeLabel(
            tr("The link works once and expires soon. If nothing arrives, check your spam folder or send a new link."),
            classes: ["dim-label", "caption"])
        resend = Button(tr("_Resend Link"), classes: ["pill"]) { [weak self] in self?.onResend?() }
        back = Button(tr("_Use Another Way to Sign In"), classes: ["pill"]) { [weak self] in self?.onBack?() }
        append(scaffold.body, hint, resend.widget, back.widget)
    }

    func show(email: String) {
        scaffold.description.text = fill(tr("We sent a sign-in link to %s. Open it on this computer to sign in."), email)
    }

    /// Resend waits while a link is sent and while the service asks to wait.
    func setCanResend(_ canResend: Bool) { resend.isSensitive = canResend }

    func focusFirst() { back.grabFocus() }
}
