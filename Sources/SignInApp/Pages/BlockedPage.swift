import CSignInUI
import SignInFlow

/// What stops the window until the person acts (no keyring, a locked keyring, a session that
/// ended): an AdwStatusPage that says what happened and offers the one action that helps. It is an
/// alert for assistive technology, so a screen reader announces it when it appears. Its layout is
/// `ui/blocked-page.ui`.
@MainActor
final class BlockedPage: StackPage {
    /// Keeps the page's widgets alive once its layout has gone.
    private let page: Widget
    private var action: Button!

    var onAction: (@MainActor () -> Void)?

    init() {
        let layout = UILayout("ui/blocked-page.ui")
        page = Widget(layout.widget("page"))
        action = Button(layout.widget("action")) { [weak self] in self?.onAction?() }
    }

    var root: UnsafeMutablePointer<GtkWidget> { page.widget }

    func show(_ blocker: Blocker, message: String) {
        let (icon, title, actionTitle) = Self.words(for: blocker)
        adw_status_page_set_icon_name(root.cast(), icon)
        adw_status_page_set_title(root.cast(), title)
        adw_status_page_set_description(root.cast(), message)
        action.setTitle(actionTitle)
        // Named by its title (AdwStatusPage's own labelled-by); the message describes it.
        portal_ui_set_accessible_description(root, message)
    }

    func focusFirst() { action.grabFocus() }

    private static func words(for blocker: Blocker) -> (icon: String, title: String, action: String) {
        switch blocker {
        case .noKeyring: return ("dialog-password-symbolic", tr("No Keyring"), tr("_Try Again"))
        case .keyringLocked: return ("system-lock-screen-symbolic", tr("Keyring Locked"), tr("_Unlock"))
        case .sessionEnded: return ("system-log-out-symbolic", tr("Session Ended"), tr("_Sign In Again"))
        }
    }
}
