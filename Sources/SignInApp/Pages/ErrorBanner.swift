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

    init() {
        root = gtk_revealer_new()!
        message = Label.bannerMessage()
        announcer = portal_ui_new_alert(gtk_box_get_type())!
        gtk_widget_set_hexpand(announcer, 1)
        gtk_box_append(announcer.cast(), message.widget)
        action = Button(tr("_Try Again"), classes: ["banner-action"]) { [weak self] in self?.onAction?() }
        gtk_widget_set_valign(action.widget, GTK_ALIGN_CENTER)
        close = Button(
            child: makeIcon("window-close-symbolic", size: 16), accessibleLabel: tr("Dismiss"),
            classes: ["flat", "circular"]
        ) { [weak self] in self?.onClose?() }
        gtk_widget_set_valign(close.widget, GTK_ALIGN_CENTER)
        let bar = makeBox(
            GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["error-banner"],
            children: [makeIcon("dialog-warning-symbolic", size: 16), announcer, action.widget, close.widget])
        gtk_revealer_set_child(root.cast(), bar)
        gtk_revealer_set_transition_type(root.cast(), GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN)
        // Hidden for assistive technology too while folded away (GTK 4.8 reports no "showing" state).
        gtk_widget_set_visible(root, 0)
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
