import CSignInUI
import SignInFlow

/// "Two-factor code": a six-digit field that accepts a pasted code and submits itself at six digits.
/// On first enrolment it also shows the otpauth:// QR code and the secret as text. Its layout is
/// `ui/code-page.ui`.
@MainActor
final class CodePage: StackPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let scaffold: PageScaffold
    private let icon: UnsafeMutablePointer<GtkWidget>
    private let enrolment: UnsafeMutablePointer<GtkWidget>
    private var qrSlot: UnsafeMutablePointer<GtkWidget>?
    private let secret: Label
    private var code: Entry!
    private var verify: Button!
    private var cancel: Button!
    private let problem: Label
    private var submitting = false

    var onSubmit: (@MainActor (String) -> Void)?
    var onCancel: (@MainActor () -> Void)?

    init() {
        let layout = UILayout("ui/code-page.ui")
        scaffold = PageScaffold(layout)
        root = scaffold.root
        icon = layout.widget("icon")
        enrolment = layout.widget("enrolment")
        secret = Label(layout.widget("secret"))
        problem = Label(layout.widget("problem"))
        code = Entry(layout.widget("code")) { [weak self] in self?.submitIfComplete() }
        code.onChange { [weak self] in self?.codeChanged() }
        verify = Button(layout.widget("verify")) { [weak self] in self?.submitIfComplete() }
        cancel = Button(layout.widget("cancel")) { [weak self] in self?.onCancel?() }
    }

    /// Shows the page for a new challenge: the QR code and key only when the link came with it.
    func show(_ challenge: CodeChallenge) {
        if let old = qrSlot {
            gtk_box_remove(enrolment.cast(), old)
            qrSlot = nil
        }
        if let link = challenge.totpLink, let picture = QRCodeView.make(text: link, targetSize: 168) {
            gtk_box_prepend(enrolment.cast(), picture)
            qrSlot = picture
        }
        secret.text = groupedSecret(challenge.totpSecret ?? "")
        gtk_widget_set_visible(enrolment, challenge.totpLink == nil ? 0 : 1)
        // The QR code takes the icon's place, so the page fits the window without scrolling.
        gtk_widget_set_visible(icon, challenge.totpLink == nil ? 1 : 0)
        scaffold.title.text = challenge.totpLink == nil ? tr("Enter Your Two-Factor Code") : tr("Set Up Two-Factor Sign-In")
        scaffold.description.text =
            challenge.totpLink == nil
            ? tr("Open your authenticator app and enter the six-digit code for Portal.")
            : tr("Scan the code with your authenticator app, then enter the six-digit code it shows.")
        problem.isVisible = false
        setBusy(false)
        code.text = ""
    }

    /// A wrong code: keep the page, say so, and let the user type again.
    func showWrongCode(_ message: String) {
        problem.text = message
        problem.isVisible = true
        setBusy(false)
        code.text = ""
        code.grabFocus()
    }

    func setBusy(_ busy: Bool) {
        submitting = busy
        code.isSensitive = !busy
        verify.isSensitive = !busy && digits(code.text).count == 6
    }

    func focusFirst() {
        code.grabFocus()
        // A selectable label selects all of itself when it passes focus on; the key is not meant to look selected.
        gtk_label_select_region(secret.widget.cast(), 0, 0)
    }

    private func codeChanged() {
        let cleaned = digits(code.text)
        if cleaned != code.text || cleaned.count > 6 { // a paste like "123 456": keep six digits
            code.text = String(cleaned.prefix(6))
            return // the assignment emits ::changed again
        }
        verify.isSensitive = !submitting && cleaned.count == 6
        if cleaned.count == 6 { submitIfComplete() }
    }

    private func submitIfComplete() {
        let cleaned = digits(code.text)
        guard cleaned.count == 6, !submitting else { return }
        problem.isVisible = false
        setBusy(true)
        onSubmit?(cleaned)
    }

    private func digits(_ text: String) -> String { String(text.filter { $0.isASCII && $0.isNumber }) }

    private func groupedSecret(_ secret: String) -> String {
        var groups: [String] = []
        var rest = Substring(secret)
        while !rest.isEmpty {
            groups.append(String(rest.prefix(4)))
            rest = rest.dropFirst(4)
        }
        return groups.joined(separator: " ")
    }
}
