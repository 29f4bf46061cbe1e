import CSignInUI
import SignInFlow

/// A banner over the pages that says what went wrong and offers the next step ("Try Again", …).
@MainActor
final class ErrorBanner {
    let root: UnsafeMutablePointer<GtkWidget>
    private let message: Label
    /// The message inside an alert: a screen reader announces the error when the banner shows it.
    private let announcer: UnsafeMutablePointer<GtkWidget>
    private var action: Button!
    private var close: Button!

    var onAction: (@MainActor () -> Void)?
    var onClose: (@MainActor () -> Void)?

    /// The banner of the main window's layout (`ui/main-window.ui`).
    init(_ layout: UILayout) {
        root = layout.widget("error_banner")
        message = Label(layout.widget("error_message"))
        announcer = layout.widget("error_announcer")
        action = Button(layout.widget("error_action")) { [weak self] in self?.onAction?() }
        close = Button(layout.widget("error_close")) { [weak self] in self?.onClose?() }
    }

    /// Shows `error`, or hides the banner for nil.
    func show(_ error: UserFacingError?) {
        guard let error else { return hide() }
        message.text = error.message
        portal_ui_set_accessible_label(announcer, error.message)
        switch error.nextStep {
        case .tryAgain: action.setTitle(tr("_Try Again"))
        case .signInAgain: action.setTitle(tr("_Sign In Again"))
        case .dismiss: break
        }
        // Nothing to do but read it: the close button is the only control then.
        action.isVisible = error.nextStep != .dismiss
        gtk_widget_set_visible(root, 1)
        gtk_revealer_set_reveal_child(root.cast(), 1)
    }

    func hide() {
        gtk_revealer_set_reveal_child(root.cast(), 0)
        gtk_widget_set_visible(root, 0)
    }

    var isShown: Bool { gtk_revealer_get_reveal_child(root.cast()) != 0 }
    var text: String { message.text }
}
