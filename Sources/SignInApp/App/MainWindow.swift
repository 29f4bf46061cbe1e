import CSignInUI
import FoundationEssentials
import GLibSupport
import SignInFlow

/// The one window: a header bar with the app menu, the banners, and a stack of pages. It draws
/// what the `SignInFlow` says (`render`) and hands it every event; it holds no sign-in state itself.
@MainActor
final class MainWindow {
    private enum PageName: String, CaseIterable {
        case status
        case signIn = "sign-in"
        case browser, confirm, code, email
        case signedIn = "signed-in"
        case setUp = "set-up"
        case blocked
    }

    let window: Widget
    private(set) var flow: SignInFlow
    /// Continue on the set-up page, once its choice is saved: the application makes the new flow.
    var onSetUpSaved: (@MainActor () -> Void)?
    private let windowTitle: OpaquePointer
    private let stack: UnsafeMutablePointer<GtkWidget>
    private let toasts: UnsafeMutablePointer<GtkWidget>
    private let banner: ErrorBanner
    private let schemeBanner: SchemeHandlerBanner
    private let statusPage = StatusPage()
    // The other pages are built the first time they are shown: only the status page stands between
    // start-up and the first frame.
    private lazy var signInPage: SignInPage = install(SignInPage(), .signIn) { page in
        page.onProvider = { [weak self] provider in self?.flow.signIn(with: provider) }
        page.onMagicLink = { [weak self] email in self?.flow.sendMagicLink(to: email) }
        page.onBack = { [weak self] in self?.flow.backToAccounts() }
    }
    private lazy var browserPage: BrowserWaitPage = install(BrowserWaitPage(), .browser) { page in
        page.onCancel = { [weak self] in self?.flow.cancelWaiting() }
        page.onCopyLink = { [weak self] in self?.copyLink() }
        page.onOpenAgain = { [weak self] in self?.flow.openAgain() }
        page.onPastedLink = { [weak self] link in self?.flow.submitPasted(link) }
    }
    private lazy var confirmPage: ConfirmRedirectPage = install(ConfirmRedirectPage(), .confirm) { page in
        page.onContinue = { [weak self] in self?.flow.continueConfirmed() }
        page.onIgnore = { [weak self] in self?.flow.ignoreConfirmed() }
    }
    private lazy var codePage: CodePage = install(CodePage(), .code) { page in
        page.onSubmit = { [weak self] code in self?.flow.submitCode(code) }
        page.onCancel = { [weak self] in self?.flow.cancelCode() }
    }
    private lazy var emailPage: EmailSentPage = install(EmailSentPage(), .email) { page in
        page.onBack = { [weak self] in self?.flow.backFromEmail() }
        page.onResend = { [weak self] in self?.flow.resendMagicLink() }
    }
    private lazy var blockedPage: BlockedPage = install(BlockedPage(), .blocked) { page in
        page.onAction = { [weak self] in self?.flow.blockedAction() }
    }
    private lazy var setUpPage: SetUpPage = install(SetUpPage(), .setUp) { page in
        page.onContinue = { [weak self] choice in
            SetUpSettings.save(choice)
            self?.onSetUpSaved?()
        }
    }
    private lazy var signedInPage: SignedInPage = install(SignedInPage(), .signedIn) { page in
        page.onSignOut = { [weak self] account in self?.askToSignOut(account) }
        page.onAddAccount = { [weak self] in self?.flow.addAccount() }
        page.onSwitch = { [weak self] id in self?.flow.switchAccount(to: id) }
        page.onCopyAddress = { [weak self] address in self?.copyAddress(address) }
        page.onReloadProfile = { [weak self] in self?.flow.reloadProfile() }
    }
    /// "Sign out of …?" while it is asked.
    private var signOutDialog: SignOutDialog?
    private var keys: GObjectRef!
    private var stackRef: GObjectRef!
    private var roots: [PageName: UnsafeMutablePointer<GtkWidget>] = [:]
    private var shown: Page?
    /// A sign-in finished (signed in, or a code is wanted) after its redirect was exchanged.
    var onSignInFinished: (@MainActor (BackToApp.Finish) -> Void)?
    /// The window became the active one.
    var onActivated: (@MainActor () -> Void)?
    /// The toast on screen: a new one replaces it. libadwaita 1.2 queues toasts for 5 s each, so
    /// signing out every few seconds built a backlog that kept the window redrawing for minutes.
    private var currentToast: OpaquePointer?
    /// The program holding the app's D-Bus name instead of this app (the banner names it).
    private let busNameOwner: String?
    private let memoryRelease = RestingMemoryRelease()

    init(application: UnsafeMutablePointer<GtkApplication>, flow: SignInFlow, busNameOwner: String? = nil) {
        self.flow = flow
        self.busNameOwner = busNameOwner
        let layout = UILayout("ui/main-window.ui")
        window = Widget(layout.widget("window"))
        gtk_window_set_application(window.widget.cast(), application)
        windowTitle = OpaquePointer(layout.widget("title"))
        stack = layout.widget("stack")
        toasts = layout.widget("toasts")
        banner = ErrorBanner(layout)
        schemeBanner = SchemeHandlerBanner(layout)
        gtk_stack_add_named(stack.cast(), statusPage.root, PageName.status.rawValue)
        roots[.status] = statusPage.root

        // Only the current page stays visible once a transition ends, so assistive technology (GTK 4.8
        // has no "showing" state) and keyboard focus never reach a page that is not on screen.
        stackRef = GObjectRef(adopting: stack.gpointer)
        stackRef.connect(.notify(.transitionRunning)) { [weak self] in self?.hideOffscreenPages() }
        wireEvents()
        handleEscape()
        window.connect(.notify(.isActive)) { [weak self] in
            guard let self, gtk_window_is_active(self.window.widget.cast()) != 0 else { return }
            self.onActivated?()
            self.flow.windowActivated()
        }
        window.connect(.closeRequest, after: false) { [weak self] _ in
            self?.flow.windowClosed()
            return false
        }
        attach(flow)
        render()
    }

    func present() {
        gtk_window_present(window.widget.cast())
        FirstFrame.shared.watch(window.widget.cast())
    }

    /// Signs in with `newFlow` from now on (the settings changed): the old flow's sign-in ends, and
    /// nothing it still finishes reaches the window.
    func replace(_ newFlow: SignInFlow) {
        flow.onChange = nil
        flow.onNotice = nil
        flow.windowClosed()
        flow = newFlow
        attach(newFlow)
        render()
    }

    private func attach(_ flow: SignInFlow) {
        flow.onChange = { [weak self] in self?.render() }
        flow.onNotice = { [weak self] notice in self?.toast(notice) }
    }

    /// "Local test environment" under the title while the emulator is in use, where the person looks.
    func showTestEnvironment(_ on: Bool) {
        adw_window_title_set_subtitle(windowTitle, on ? tr("Local test environment") : "")
    }

    /// Puts a page built on first use into the stack (hidden until shown) and connects its events.
    private func install<Page: AnyObject & StackPage>(_ page: Page, _ name: PageName, wire: (Page) -> Void) -> Page {
        gtk_widget_set_visible(page.root, 0)
        gtk_stack_add_named(stack.cast(), page.root, name.rawValue)
        roots[name] = page.root
        wire(page)
        return page
    }

    // MARK: - Drawing the flow's state

    private func render() {
        banner.show(flow.banner)
        schemeBanner.show(owner: flow.foreignSchemeHandler, busNameOwner: busNameOwner)
        if roots[.signedIn] != nil { signedInPage.setBusy(flow.isSigningOut) }
        if roots[.email] != nil { emailPage.setCanResend(flow.canResend) }
        let page = flow.page
        if case .signedIn = page {
        } else if let dialog = signOutDialog {
            dialog.close() // the account it asked about is no longer shown
            signOutDialog = nil
        }
        guard page != shown else { return }
        let previous = shown
        shown = page
        switch page {
        case .loading:
            statusPage.show(tr("Checking your saved session…"))
        case .completing:
            statusPage.show(tr("Signing in…"))
        case .signIn(let state):
            signInPage.show(state)
        case .waitingForBrowser(let provider, let problem):
            if case .waitingForBrowser(provider, _)? = previous {} else { browserPage.enter(provider: provider) }
            browserPage.show(pasteProblem: problem)
        case .confirmRedirect(let confirm):
            confirmPage.show(confirm)
        case .code(let challenge, let wrongCode):
            if let wrongCode, case .code(challenge, _)? = previous {
                codePage.showWrongCode(wrongCode.message)
            } else {
                codePage.show(challenge)
            }
        case .emailSent(let email):
            emailPage.show(email: email)
        case .signedIn(let state):
            signedInPage.show(state)
        case .setUp(let state):
            setUpPage.show(backend: state.backend, canSave: state.canSave)
        case .blocked(let state):
            blockedPage.show(state.blocker, message: state.message)
        }
        let name = Self.pageName(page)
        if previous.map(Self.pageName) != name { switchTo(name) }
    }

    /// What a sign-in finished from its redirect tells a person who is not looking at the window.
    private static func finish(_ finish: SignInFinish, backend: Backend) -> BackToApp.Finish {
        switch finish {
        case .signedIn(let account):
            var name = account.title
            for case .user(let user) in account.details { name = user }
            return .signedIn(backend, account: name)
        case .needsCode:
            return .needsCode
        }
    }

    private static func pageName(_ page: Page) -> PageName {
        switch page {
        case .loading, .completing: return .status
        case .signIn: return .signIn
        case .waitingForBrowser: return .browser
        case .confirmRedirect: return .confirm
        case .code: return .code
        case .emailSent: return .email
        case .signedIn: return .signedIn
        case .setUp: return .setUp
        case .blocked: return .blocked
        }
    }

    private func switchTo(_ name: PageName) {
        if let root = roots[name] { gtk_widget_set_visible(root, 1) }
        gtk_stack_set_visible_child_name(stack.cast(), name.rawValue)
        statusPage.setActive(name == .status)
        hideOffscreenPages()
        memoryRelease.pageSwitched()
        switch name {
        case .signIn: signInPage.focusFirst()
        case .browser: browserPage.focusFirst()
        case .confirm: confirmPage.focusFirst()
        case .code: codePage.focusFirst()
        case .email: emailPage.focusFirst()
        case .signedIn: signedInPage.focusFirst()
        case .setUp: setUpPage.focusFirst()
        case .blocked: blockedPage.focusFirst()
        case .status: break
        }
    }

    private func hideOffscreenPages() {
        guard gtk_stack_get_transition_running(stack.cast()) == 0, let current = shown.map(Self.pageName) else { return }
        for (name, root) in roots where name != current { gtk_widget_set_visible(root, 0) }
    }

    private func toast(_ notice: Notice) {
        let title: String
        switch notice {
        case .linkCopied: title = tr("Link copied")
        case .linkSent: title = tr("New link sent")
        case .signedOut: title = tr("Signed out")
        case .signInCancelled: title = tr("Sign-in cancelled in the browser")
        case .keyringStillMissing: title = tr("Still no keyring service")
        case .sessionEnded(let message): title = message
        case .redirectIgnored: title = tr("Sign-in link ignored")
        case .signInFinished(let finish):
            onSignInFinished?(Self.finish(finish, backend: flow.backend))
            return
        }
        showToast(title)
    }

    private func showToast(_ title: String) {
        if let previous = currentToast {
            adw_toast_dismiss(previous)
            g_object_unref(UnsafeMutableRawPointer(previous))
        }
        let toast = adw_toast_new(title)!
        currentToast = OpaquePointer(g_object_ref(UnsafeMutableRawPointer(toast)))
        adw_toast_overlay_add_toast(toasts.cast(), toast)
    }

    // MARK: - Events into the flow

    private func wireEvents() {
        banner.onAction = { [weak self] in self?.flow.bannerAction() }
        banner.onClose = { [weak self] in self?.flow.dismissBanner() }
        schemeBanner.onMakeDefault = { [weak self] in self?.flow.claimSchemeHandler() }
    }

    /// Sign Out asks first: the session stays in the keyring until the person says Sign Out.
    private func askToSignOut(_ account: SignedInAccount) {
        signOutDialog?.close()
        var name: String?
        if case .signedIn(let state) = flow.page, case .loaded(let profile) = state.profile {
            name = profile.person ?? profile.appName
        }
        signOutDialog = SignOutDialog(over: window.widget, name: name) { [weak self] in
            guard let self, case .signedIn(let state) = self.flow.page, state.current.id == account.id else { return }
            self.flow.signOut()
        }
    }

    private func copyAddress(_ address: String) {
        gdk_clipboard_set_text(gtk_widget_get_clipboard(window.widget), address)
        showToast(tr("Address copied"))
    }

    private func copyLink() {
        guard let link = flow.linkToCopy() else { return }
        gdk_clipboard_set_text(gtk_widget_get_clipboard(window.widget), link)
    }

    /// Escape stops waiting for the browser, leaves the code page, or ignores an unsolicited link.
    private func handleEscape() {
        let controller = gtk_event_controller_key_new()!
        keys = GObjectRef(adopting: UnsafeMutableRawPointer(controller))
        gtk_widget_add_controller(window.widget, controller)
        keys.connect(.keyPressed) { [weak self] arguments in
            guard let self, arguments.uint(0) == UInt32(GDK_KEY_Escape) else { return false }
            switch self.flow.page {
            case .waitingForBrowser:
                self.flow.cancelWaiting()
                return true
            case .code:
                self.flow.cancelCode()
                return true
            case .confirmRedirect:
                self.flow.ignoreConfirmed()
                return true
            default: return false
            }
        }
    }
}
