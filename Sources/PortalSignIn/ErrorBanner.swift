import CPortalShim

/// A banner over the pages that says what went wrong and offers the next step ("Try Again", …).
@MainActor
final class ErrorBanner {
    let root: UnsafeMutablePointer<GtkWidget>
    private let message: Label
    private var action: Button!
    private var close: Button!

    var onAction: (@MainActor (UserFacingError.NextStep) -> Void)?
    private var nextStep: UserFacingError.NextStep = .dismiss

    init() {
        root = gtk_revealer_new()!
        message = Label("", classes: [])
        gtk_label_set_xalign(message.widget.cast(), 0)
        gtk_label_set_justify(message.widget.cast(), GTK_JUSTIFY_LEFT)
        gtk_widget_set_hexpand(message.widget, 1)
        gtk_widget_set_valign(message.widget, GTK_ALIGN_CENTER)
        action = Button(tr("_Try Again"), classes: ["pill"]) { [weak self] in
            guard let self else { return }
            self.hide()
            self.onAction?(self.nextStep)
        }
        gtk_widget_set_valign(action.widget, GTK_ALIGN_CENTER)
        close = Button(child: makeIcon("window-close-symbolic", size: 16), accessibleLabel: tr("Dismiss"),
                       classes: ["flat", "circular"]) { [weak self] in self?.hide() }
        gtk_widget_set_valign(close.widget, GTK_ALIGN_CENTER)
        let bar = makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["error-banner"],
                          children: [makeIcon("dialog-warning-symbolic", size: 16), message.widget, action.widget, close.widget])
        gtk_revealer_set_child(root.cast(), bar)
        gtk_revealer_set_transition_type(root.cast(), GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN)
    }

    func show(_ error: UserFacingError) {
        message.text = error.message
        nextStep = error.nextStep
        switch error.nextStep {
        case .tryAgain: gtk_button_set_label(action.widget.cast(), tr("_Try Again")); action.setAccessibleLabel(tr("Try Again"))
        case .signInAgain: gtk_button_set_label(action.widget.cast(), tr("_Sign In Again")); action.setAccessibleLabel(tr("Sign In Again"))
        case .dismiss: gtk_button_set_label(action.widget.cast(), tr("_OK")); action.setAccessibleLabel(tr("OK"))
        }
        gtk_button_set_use_underline(action.widget.cast(), 1)
        gtk_revealer_set_reveal_child(root.cast(), 1)
    }

    func hide() { gtk_revealer_set_reveal_child(root.cast(), 0) }

    var isShown: Bool { gtk_revealer_get_reveal_child(root.cast()) != 0 }
    var text: String { message.text }
}
