import CSignInUI
import FoundationEssentials
import SignInFlow

/// Brings the person back to the window when a sign-in finishes (signed in, or a two-factor code is
/// wanted) while the window is behind the browser. With the activation token the redirect's Open
/// request carried, the window presents itself (a window manager lets a window come forward only
/// with one); without one — Firefox sends none — a desktop notification says what happened, and its
/// default action (`app.show-window`, which only presents the window) brings the window forward.
/// Nothing is shown while the window is active.
@MainActor
final class BackToApp {
    /// The one action a notification may activate: any process on the session bus can call an
    /// exported action, so it only presents the window; page commands are never actions.
    static let showWindowAction = "show-window"
    private static let notificationId = "sign-in-finished"

    enum Finish: Equatable {
        case signedIn(Backend, account: String)
        case needsCode
    }

    private let application: UnsafeMutablePointer<GApplication>
    /// The newest Open request's token; used once.
    private var startupId: String?
    private var notificationShown = false
    private let log = DebugLog.ifRequested()

    init(application: UnsafeMutablePointer<GApplication>) {
        self.application = application
    }

    /// An Open request arrived: keep its token (GtkApplication put it on the display for this
    /// request; a request without one replaces an older token, which belongs to an older click).
    func requestArrived() {
        if let id = portal_ui_display_startup_id() {
            startupId = String(cString: id)
            g_free(id)
        } else {
            startupId = nil
        }
    }

    /// Connects to the window: its finished sign-ins, and its activation (which withdraws the notification).
    func watch(_ window: MainWindow) {
        let gtkWindow: UnsafeMutablePointer<GtkWindow> = window.window.widget.cast()
        window.onSignInFinished = { [weak self] finish in self?.finished(finish, window: gtkWindow) }
        window.onActivated = { [weak self] in self?.withdraw() }
    }

    private func finished(_ finish: Finish, window: UnsafeMutablePointer<GtkWindow>) {
        guard gtk_window_is_active(window) == 0 else {
            log?.log("sign-in finished: the window is active")
            return
        }
        if let token = startupId {
            log?.log("sign-in finished behind another window: presenting with the request's activation token")
            startupId = nil
            portal_ui_present_with_startup_id(window, token)
            return
        }
        let (title, body) = Self.words(finish)
        let notification = g_notification_new(title)!
        g_notification_set_body(notification, body)
        g_notification_set_default_action(notification, "app.\(Self.showWindowAction)")
        log?.log("sign-in finished behind another window: sending a notification")
        g_application_send_notification(application, Self.notificationId, notification)
        g_object_unref(UnsafeMutableRawPointer(notification))
        notificationShown = true
    }

    private func withdraw() {
        guard notificationShown else { return }
        notificationShown = false
        g_application_withdraw_notification(application, Self.notificationId)
    }

    static func words(_ finish: Finish) -> (title: String, body: String) {
        switch finish {
        case .signedIn(.portal, let account):
            return (fill(tr("Signed in to Portal as %s"), account), tr("Open Portal Sign-In to see your account."))
        case .signedIn(.turnkey, let account):
            return (fill(tr("Signed in to Turnkey as %s"), account), tr("Open Portal Sign-In to see your account."))
        case .needsCode:
            return (
                tr("Enter Your Two-Factor Code"),
                tr("Portal Sign-In needs the six-digit code from your authenticator app to finish signing in.")
            )
        }
    }
}
