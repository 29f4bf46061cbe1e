import CSignInUI

/// "Check Your Email": the magic link is on its way; opening it on this computer signs in. Its
/// layout is `ui/email-sent-page.ui`.
@MainActor
final class EmailSentPage: StackPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let scaffold: PageScaffold
    private var back: Button!
    private var resend: Button!

    var onBack: (@MainActor () -> Void)?
    var onResend: (@MainActor () -> Void)?

    init() {
        let layout = UILayout("ui/email-sent-page.ui")
        scaffold = PageScaffold(layout)
        root = scaffold.root
        resend = Button(layout.widget("resend")) { [weak self] in self?.onResend?() }
        back = Button(layout.widget("back")) { [weak self] in self?.onBack?() }
    }

    func show(email: String) {
        scaffold.description.text = fill(tr("We sent a sign-in link to %s. Open it on this computer to sign in."), email)
    }

    /// Resend waits while a link is sent and while the service asks to wait.
    func setCanResend(_ canResend: Bool) { resend.isSensitive = canResend }

    func focusFirst() { back.grabFocus() }
}
