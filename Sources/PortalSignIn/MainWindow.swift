import CPortalUI
import Foundation

/// The one window: a header bar with the app menu, the error banner, and a stack of pages driven by
/// the sign-in flow. Every Portal call goes through `AccountService`; async work runs in
/// `Task { @MainActor … }` on the GLib main loop (MainLoopBridge).
@MainActor
final class MainWindow {
    enum Page: String { case status, signIn = "sign-in", browser, code, email, signedIn = "signed-in" }

    let window: Widget
    private let service: AccountService
    private let stack: UnsafeMutablePointer<GtkWidget>
    private let toasts: UnsafeMutablePointer<GtkWidget>
    private let banner = ErrorBanner()
    private let statusPage = StatusPage()
    private let signInPage = SignInPage()
    private let browserPage = BrowserWaitPage()
    private let codePage = CodePage()
    private let emailPage = EmailSentPage()
    private let signedInPage = SignedInPage()
    private var styleManager: GObjectRef!
    private var keys: GObjectRef!
    private var stackRef: GObjectRef!
    private var pageRoots: [Page: UnsafeMutablePointer<GtkWidget>] = [:]

    private(set) var page: Page = .status
    private var signInTask: Task<Void, Never>?
    private var challenge: CodeChallenge?
    private var lastSessionCheck = Date.distantPast
    /// What the banner's "Try Again" repeats.
    private var retry: (@MainActor () -> Void)?

    init(application: UnsafeMutablePointer<GtkApplication>, service: AccountService) {
        self.service = service
        window = Widget(adw_application_window_new(application))
        gtk_window_set_title(window.widget.cast(), tr("Portal Sign-In"))
        gtk_window_set_default_size(window.widget.cast(), 420, 640)
        gtk_widget_set_size_request(window.widget, 360, 480)

        stack = gtk_stack_new()!
        gtk_stack_set_transition_type(stack.cast(), GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        gtk_widget_set_vexpand(stack, 1)
        for (page, root) in [(Page.status, statusPage.root), (.signIn, signInPage.root), (.browser, browserPage.root),
                             (.code, codePage.root), (.email, emailPage.root), (.signedIn, signedInPage.root)] {
            gtk_stack_add_named(stack.cast(), root, page.rawValue)
            pageRoots[page] = root
            gtk_widget_set_visible(root, page == .status ? 1 : 0)
        }
        toasts = adw_toast_overlay_new()!
        adw_toast_overlay_set_child(toasts.cast(), stack)

        let content = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 0,
                              children: [Self.makeHeaderBar(), banner.root, toasts])
        adw_application_window_set_content(window.widget.cast(), content)

        // Only the current page stays visible once a transition ends, so assistive technology (GTK 4.8
        // has no "showing" state) and keyboard focus never reach a page that is not on screen.
        stackRef = GObjectRef(adopting: stack.gpointer)
        stackRef.connect("notify::transition-running") { [weak self] in self?.hideOffscreenPages() }
        wirePages()
        followStyle()
        handleEscape()
        window.connect("notify::is-active") { [weak self] in self?.checkSessionWhenActivated() }
    }

    func present() { gtk_window_present(window.widget.cast()) }

    // MARK: - Start

    /// Restores the stored session, or (launched by a redirect URI) handles that URI instead.
    func start(with uris: [String]) {
        if uris.isEmpty {
            restore()
        } else {
            show(.signIn)
            for uri in uris { receive(uri) }
        }
    }

    private func restore() {
        statusPage.show(tr("Checking your saved session…"))
        show(.status)
        Task { @MainActor in
            do {
                if let account = try await service.restore() {
                    showSignedIn(account)
                } else if page == .status {
                    show(.signIn)
                }
            } catch {
                show(.signIn)
                report(error, retry: { [weak self] in self?.restore() })
            }
        }
    }

    // MARK: - Redirects (::open and the paste field)

    /// A URI from the desktop or the paste field: a waiting sign-in takes it, else it is handled on its own.
    func receive(_ uri: String) {
        Task { @MainActor in
            do {
                guard let outcome = try await service.receive(uri) else { return }
                signInTask?.cancel()
                signInTask = nil
                handle(outcome)
            } catch {
                if page == .status || page == .browser && signInTask == nil { show(.signIn) }
                report(error, retry: nil)
            }
        }
    }

    // MARK: - Browser sign-in

    private func startSignIn(_ provider: SignInProvider) {
        guard signInTask == nil else { return }
        banner.hide()
        browserPage.show(provider: provider)
        show(.browser)
        signInTask = Task { @MainActor in
            defer { if !Task.isCancelled { signInTask = nil } }
            do {
                let outcome = try await service.signIn(with: provider)
                guard !Task.isCancelled else { return }
                handle(outcome)
            } catch {
                guard !Task.isCancelled else { return }   // the user pressed Cancel
                show(.signIn)
                report(error, retry: { [weak self] in self?.startSignIn(provider) })
            }
        }
    }

    private func cancelWaiting() {
        guard page == .browser else { return }
        signInTask?.cancel()
        signInTask = nil
        banner.hide()
        show(.signIn)
    }

    private func copyAuthorizeLink() {
        guard let url = service.currentAuthorizeURL else { return }
        let clipboard = gtk_widget_get_clipboard(window.widget)
        gdk_clipboard_set_text(clipboard, url.absoluteString)
        toast(tr("Link copied"))
    }

    private func openAgain() {
        Task { @MainActor in
            do { try await service.openAuthorizeURLAgain() } catch { report(error, retry: nil) }
        }
    }

    // MARK: - Outcomes

    private func handle(_ outcome: SignInOutcome) {
        banner.hide()
        switch outcome {
        case .signedIn(let account):
            showSignedIn(account)
        case .needsCode(let newChallenge):
            challenge = newChallenge
            codePage.show(newChallenge)
            show(.code)
        }
    }

    private func showSignedIn(_ account: SignedInAccount) {
        challenge = nil
        lastSessionCheck = Date()
        signedInPage.show(account)
        show(.signedIn)
    }

    private func submitCode(_ code: String) {
        guard let challenge else { return }
        Task { @MainActor in
            do {
                let account = try await service.verify(code: code, for: challenge)
                showSignedIn(account)
            } catch {
                let problem = service.describe(error)
                if problem.isWrongCode {
                    codePage.showWrongCode(problem.message)
                } else {
                    codePage.setBusy(false)
                    self.challenge = nil
                    show(.signIn)
                    report(error, retry: nil)
                }
            }
        }
    }

    // MARK: - Magic link

    private func sendMagicLink(_ email: String) {
        banner.hide()
        signInPage.setBusy(true)
        Task { @MainActor in
            defer { signInPage.setBusy(false) }
            do {
                try await service.sendMagicLink(to: email)
                emailPage.show(email: email)
                show(.email)
            } catch {
                report(error, retry: { [weak self] in self?.sendMagicLink(email) })
            }
        }
    }

    // MARK: - Sign out and invalidation

    private func signOut() {
        signedInPage.setBusy(true)
        Task { @MainActor in
            do {
                try await service.signOut()
                show(.signIn)
                toast(tr("Signed out"))
            } catch {
                signedInPage.setBusy(false)
                report(error, retry: { [weak self] in self?.signOut() })
            }
        }
    }

    /// Coming back to the window re-checks the session with Portal (at most once a minute), so a
    /// session revoked meanwhile returns to Sign in instead of showing a stale "Signed in".
    private func checkSessionWhenActivated() {
        guard page == .signedIn, gtk_window_is_active(window.widget.cast()) != 0,
              Date().timeIntervalSince(lastSessionCheck) > 60 else { return }
        lastSessionCheck = Date()
        Task { @MainActor in try? await service.checkSession() }   // a 401 fires onSessionInvalidated
    }

    private func sessionInvalidated() {
        guard page == .signedIn || page == .status else { return }
        show(.signIn)
        banner.show(UserFacingError(message: tr("Your session has ended. Sign in again to continue."), nextStep: .dismiss))
    }

    // MARK: - Plumbing

    private func show(_ newPage: Page) {
        if page == .browser && newPage != .browser { browserPage.stop() }
        if page == .status && newPage != .status { statusPage.stop() }
        page = newPage
        if let root = pageRoots[newPage] { gtk_widget_set_visible(root, 1) }
        gtk_stack_set_visible_child_name(stack.cast(), newPage.rawValue)
        hideOffscreenPages()
        switch newPage {
        case .signIn: signInPage.setBusy(false); signInPage.focusFirst()
        case .browser: browserPage.focusFirst()
        case .code: codePage.focusFirst()
        case .email: emailPage.focusFirst()
        case .signedIn: signedInPage.focusFirst()
        case .status: break
        }
    }

    private func hideOffscreenPages() {
        guard gtk_stack_get_transition_running(stack.cast()) == 0 else { return }
        for (candidate, root) in pageRoots where candidate != page { gtk_widget_set_visible(root, 0) }
    }

    private func report(_ error: Error, retry: (@MainActor () -> Void)?) {
        let problem = service.describe(error)
        guard !problem.isCancellation else { return }
        self.retry = retry
        let step: UserFacingError.NextStep = retry == nil && problem.nextStep == .tryAgain ? .dismiss : problem.nextStep
        banner.show(UserFacingError(message: problem.message, nextStep: step))
    }

    private func toast(_ title: String) {
        adw_toast_overlay_add_toast(toasts.cast(), adw_toast_new(title))
    }

    private func wirePages() {
        signInPage.onProvider = { [weak self] provider in self?.startSignIn(provider) }
        signInPage.onMagicLink = { [weak self] email in self?.sendMagicLink(email) }
        browserPage.onCancel = { [weak self] in self?.cancelWaiting() }
        browserPage.onCopyLink = { [weak self] in self?.copyAuthorizeLink() }
        browserPage.onOpenAgain = { [weak self] in self?.openAgain() }
        browserPage.onPastedLink = { [weak self] link in self?.receive(link) }
        codePage.onSubmit = { [weak self] code in self?.submitCode(code) }
        codePage.onCancel = { [weak self] in self?.challenge = nil; self?.show(.signIn) }
        emailPage.onBack = { [weak self] in self?.show(.signIn) }
        signedInPage.onSignOut = { [weak self] in self?.signOut() }
        service.onSessionInvalidated = { [weak self] in self?.sessionInvalidated() }
        banner.onAction = { [weak self] step in
            guard let self else { return }
            switch step {
            case .tryAgain: self.retry?()
            case .signInAgain: self.show(.signIn)
            case .dismiss: break
            }
        }
    }

    /// Brand buttons change with the style (Apple black on light, white on dark; Google's dark theme).
    private func followStyle() {
        styleManager = GObjectRef(adopting: UnsafeMutableRawPointer(adw_style_manager_get_default()))
        styleManager.connect("notify::dark") { [weak self] in self?.signInPage.apply(dark: Style.isDark) }
        signInPage.apply(dark: Style.isDark)
    }

    /// Escape stops waiting for the browser (or leaves the code page).
    private func handleEscape() {
        let controller = gtk_event_controller_key_new()!
        keys = GObjectRef(adopting: UnsafeMutableRawPointer(controller))
        gtk_widget_add_controller(window.widget, controller)
        keys.connect("key-pressed") { [weak self] arguments in
            guard let self, arguments.uint(0) == UInt32(GDK_KEY_Escape) else { return false }
            switch self.page {
            case .browser: self.cancelWaiting(); return true
            case .code: self.challenge = nil; self.show(.signIn); return true
            default: return false
            }
        }
    }

    private static func makeHeaderBar() -> UnsafeMutablePointer<GtkWidget> {
        let header = adw_header_bar_new()!
        let title = adw_window_title_new(tr("Portal Sign-In"), nil)!
        adw_header_bar_set_title_widget(header.cast(), title)
        let menu = g_menu_new()!
        if SignInApplication.preferences != nil { g_menu_append(menu, tr("_Preferences"), "app.preferences") }
        g_menu_append(menu, tr("_About Portal Sign-In"), "app.about")
        let button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(button.cast(), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(button.cast(), UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self))
        g_object_unref(UnsafeMutableRawPointer(menu))
        portal_ui_set_accessible_label(button, tr("Main Menu"))
        adw_header_bar_pack_end(header.cast(), button)
        return header
    }
}
