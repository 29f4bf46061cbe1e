import AuthBase
import FoundationEssentials

/// The sign-in window's state machine: events in (start, a provider tapped, a redirect, Cancel, a
/// code, sign-out, a session ending or refreshing), the page to show out. No GTK: the window draws
/// `page`, `banner` and `foreignSchemeHandler`, and calls the event methods; tests drive it with a
/// fake `AccountService` and `AccountDesktop`. Before a service is set up, the flow shows the set-up
/// page and keeps what the desktop hands over for the service that follows (`use`).
///
/// Redirects are untrusted input: only one this app started finishes without asking; anything
/// else waits on "Finish Signing In?" for the person’s Sign In (or, when it can never finish here,
/// is refused). URIs that arrive while the flow is busy (loading, exchanging, signing out) wait
/// their turn, so no two exchanges overlap.
///
/// Nothing that would spend a grant starts without a keyring to keep the session in: while no
/// Secret Service is running, the sign-in page waits (its controls insensitive, the banner saying
/// what to install) and redirects wait their turn, until the service appears or Try Again finds it.
@MainActor
public final class SignInFlow {
    public private(set) var page: Page = .loading
    public private(set) var banner: UserFacingError?
    /// The app that handles the redirect scheme instead of this one, if any.
    public private(set) var foreignSchemeHandler: String?
    /// Sign-out is running: the signed-in page's button is disabled.
    public private(set) var isSigningOut = false
    /// Resend on "Check Your Email" is sending.
    public private(set) var isResending = false
    /// The backend asked to wait before another link (its rate limit): Resend waits until then.
    public private(set) var resendAllowedAfter: Date?
    /// Resend can be pressed now.
    public var canResend: Bool { !isResending && resendAllowedAfter == nil }

    /// Called after every change of `page`, `banner`, `foreignSchemeHandler` or `isSigningOut`.
    public var onChange: (@MainActor () -> Void)?
    /// Brief notices ("Link copied", "Signed out"), and a sign-in finished from its redirect.
    public var onNotice: (@MainActor (Notice) -> Void)?

    private var service: any AccountService
    private let desktop: any AccountDesktop
    /// Which sign-in service the flow signs in to.
    public var backend: Backend { service.backend }
    private var providers: [SignInProvider] = []
    /// Signed-in accounts, oldest first, and the one shown.
    private var accounts: [SignedInAccount] = []
    private var currentId: String?
    /// Who, where and which wallets, per account id: fetched the first time the account is shown.
    private var profiles: [String: ProfileLookup] = [:]
    private var waiting: WaitingSignIn?
    private var challenge: CodeChallenge?
    /// The redirect shown on "Finish Signing In?", and the page to return to on Discard Link.
    private var confirming: (redirect: HeldRedirect, previous: Page)?
    /// URIs that arrived while the flow was busy (or before a service was set up).
    private var deferred: [String] = []
    /// Redirects already offered that wait for the keyring, with the backend's verdict: decided first.
    private var held: [RedirectVerdict] = []
    /// The backend offers email links (and can send them).
    private var offersEmailLinks = false
    private var retry: (@MainActor () -> Void)?
    private var lastSessionCheck = Date.distantPast
    /// No Secret Service was found: sign-in waits for one.
    private var keyringMissing = false
    /// The page the "No keyring" page replaced, when it has something to keep (a code challenge).
    private var pageBeforeKeyring: Page?
    /// The provider of the session that just ended, for Sign In Again.
    private var endedProvider: SignInProvider?
    /// The banner says no keyring is running (it goes once one is found).
    private var bannerIsKeyringAdvice = false
    /// The saved sessions were read (or their reading failed): a keyring that appears later only
    /// lets the sign-in page go on, it does not restore again.
    private var restored = false

    private struct WaitingSignIn {
        let provider: SignInProvider
        let id = UUID()
        var task: Task<Void, Never>?
        /// The redirect was handed over: the exchange runs and Cancel comes too late.
        var redirectDelivered = false
    }

    public init(service: any AccountService, desktop: any AccountDesktop) {
        self.service = service
        self.desktop = desktop
        listen(to: service)
        desktop.watchKeyring { [weak self] in self?.recheckKeyring() }
    }

    private func listen(to service: any AccountService) {
        service.onAccountChange = { [weak self] change in
            switch change {
            case .ended(let id): self?.sessionInvalidated(id)
            case .updated(let account): self?.accountUpdated(account)
            }
        }
    }

    private var currentAccount: SignedInAccount? {
        accounts.first { $0.id == currentId } ?? accounts.first
    }

    // MARK: - Start

    /// Restores the saved sessions, then handles the URIs the app was started with.
    public func start(uris: [String] = []) {
        deferred += uris
        show(.loading)
        Task {
            await desktop.firstFrameDrawn()
            let choices = await service.signInChoices()
            providers = choices.providers
            offersEmailLinks = choices.emailLinks && service is any EmailLinkSignIn
            // Asked after the first frame, as the network and the keyring are, so reading the desktop's MIME defaults never delays it.
            foreignSchemeHandler = desktop.foreignSchemeHandler()
            guard await desktop.keyringAvailable() else { return waitForKeyring() }
            restored = true
            do {
                accounts = try await service.restore()
                currentId = accounts.first?.id
                lastSessionCheck = Date()
            } catch {
                report(error) { [weak self] in self?.retryRestore() }
            }
            settle()
        }
    }

    private func retryRestore() {
        deferred = []
        start()
    }

    // MARK: - Set-up

    /// No service is set up: the set-up page, and what the desktop hands over waits for `use`.
    public func setUp(backend: Backend, canSave: Bool) {
        banner = nil
        show(.setUp(SetUpPageState(backend: backend, canSave: canSave)))
    }

    /// The set-up page saved a configuration: signs in with `newService` from now on, starting with
    /// the URIs that waited.
    public func use(_ newService: any AccountService) {
        service.onAccountChange = nil
        waiting?.task?.cancel()
        waiting = nil
        service.cancelSignIn()
        service = newService
        listen(to: newService)
        accounts = []
        currentId = nil
        profiles = [:]
        challenge = nil
        confirming = nil
        restored = false
        start()
    }

    // MARK: - Browser sign-in

    public func signIn(with provider: SignInProvider) {
        guard case .signIn(let state) = page, !state.busy, !state.waitingForKeyring, waiting == nil else { return }
        banner = nil
        foreignSchemeHandler = desktop.foreignSchemeHandler()
        var waiting = WaitingSignIn(provider: provider)
        let id = waiting.id
        waiting.task = Task { [weak self] in
            guard let self else { return }
            guard await desktop.keyringAvailable() else {
                guard self.waiting?.id == id else { return }
                self.waiting = nil
                return waitForKeyring()
            }
            guard self.waiting?.id == id else { return }
            do {
                let outcome = try await service.signIn(with: provider)
                guard self.waiting?.id == id else { return }
                self.waiting = nil
                finish(outcome)
            } catch {
                guard self.waiting?.id == id else { return } // cancelled by the person
                self.waiting = nil
                show(signInPage())
                report(error) { [weak self] in self?.signIn(with: provider) }
                settle()
            }
        }
        self.waiting = waiting
        show(.waitingForBrowser(provider: provider, pasteProblem: nil))
    }

    /// Cancel or Escape on "Continue in Your Browser". Too late once the redirect was handed over.
    public func cancelWaiting() {
        guard let current = waiting, !current.redirectDelivered else { return }
        waiting = nil
        current.task?.cancel()
        service.cancelSignIn()
        banner = nil
        show(signInPage())
    }

    /// "Copy Link": the authorize URL to put on the clipboard, if a sign-in runs.
    public func linkToCopy() -> String? {
        guard waiting != nil, let url = service.authorizeURL else { return nil }
        onNotice?(.linkCopied)
        return url.absoluteString
    }

    public func openAgain() {
        guard waiting != nil, let url = service.authorizeURL else { return }
        Task {
            do { try await desktop.openInBrowser(url) } catch { report(error, retry: nil) }
        }
    }

    /// The text pasted on the waiting page: taken only when it is this sign-in's redirect.
    public func submitPasted(_ text: String) {
        guard let current = waiting, !current.redirectDelivered else { return }
        switch service.offer(text.trimmed) {
        case .notMine:
            show(.waitingForBrowser(provider: current.provider, pasteProblem: .notASignInLink))
        case .taken:
            redirectTaken()
        case .ignore, .refuse, .exchange, .ask:
            show(.waitingForBrowser(provider: current.provider, pasteProblem: .anotherSignIn))
        }
    }

    // MARK: - Redirects from the desktop

    /// A URI the desktop handed the app (`::open`).
    public func receive(_ uri: String) {
        guard !isBusy else {
            deferred.append(uri)
            return
        }
        decide(service.offer(uri))
    }

    /// Does what the backend's verdict on a URI says (a held redirect is decided again the same way).
    private func decide(_ verdict: RedirectVerdict) {
        switch verdict {
        case .notMine:
            return
        case .taken:
            redirectTaken()
        case .ignore:
            // A provider page pressed twice, a stale tab: not an alarm.
            onNotice?(.redirectIgnored)
        case .refuse(let method):
            report(RefusedSignInLinkError(method: method), retry: nil)
        case .exchange(let redirect):
            let addsRatherThanReplaces = accounts.isEmpty || service.keepsSeveralAccounts
            if redirect.standing == .repeated || (addsRatherThanReplaces && waiting == nil) {
                exchange(redirect, as: verdict)
            } else {
                confirm(redirect) // it would replace the signed-in account, or end the sign-in waiting
            }
        case .ask(let redirect):
            confirm(redirect)
        }
    }

    /// "Finish Signing In?": the person decides.
    private func confirm(_ redirect: HeldRedirect) {
        let previous = confirming?.previous ?? page
        confirming = (redirect, previous)
        let replaces = service.keepsSeveralAccounts ? nil : currentAccount
        show(
            .confirmRedirect(
                ConfirmRedirect(
                    method: redirect.method, replacesAccount: replaces, startedBeforeRestart: redirect.standing == .earlierRun)))
    }

    /// "Continue" on "Finish Signing In?".
    public func continueConfirmed() {
        guard let (redirect, _) = confirming else { return }
        confirming = nil
        if let current = waiting {
            // The confirmed link replaces the sign-in that was waiting.
            waiting = nil
            current.task?.cancel()
            service.cancelSignIn()
        }
        exchange(redirect, as: .ask(redirect))
    }

    /// "Ignore" on "Finish Signing In?": nothing is sent, the grant stays unspent.
    public func ignoreConfirmed() {
        guard let (_, previous) = confirming else { return }
        confirming = nil
        show(previous)
        onNotice?(.redirectIgnored)
        settle()
    }

    /// The waiting sign-in took its redirect: it exchanges it, and Cancel comes too late.
    private func redirectTaken() {
        waiting?.redirectDelivered = true
        show(.completing)
    }

    /// `verdict`: what the backend said of it, decided again once a keyring is back.
    private func exchange(_ redirect: HeldRedirect, as verdict: RedirectVerdict) {
        banner = nil
        show(.completing)
        Task {
            guard await desktop.keyringAvailable() else {
                // The redirect keeps its grant and waits for the keyring, first in line.
                held.insert(verdict, at: 0)
                return waitForKeyring()
            }
            do {
                finish(try await service.complete(redirect))
            } catch {
                show(signedInPage() ?? signInPage())
                report(error, retry: nil)
                settle()
            }
        }
    }

    // MARK: - Outcomes

    private func finish(_ outcome: SignInOutcome) {
        banner = nil
        // Finished from its redirect (not on the window's own page): the person may be in the browser.
        let fromRedirect = page == .completing
        switch outcome {
        case .signedIn(let signedIn):
            showSignedIn(signedIn)
            if fromRedirect { onNotice?(.signInFinished(.signedIn(signedIn))) }
        case .needsCode(let newChallenge):
            challenge = newChallenge
            show(.code(newChallenge, wrongCode: nil))
            if fromRedirect { onNotice?(.signInFinished(.needsCode)) }
        }
        settle()
    }

    /// Adds (or, on a backend with one account, replaces) the account and shows it.
    private func showSignedIn(_ signedIn: SignedInAccount) {
        if service.keepsSeveralAccounts {
            if let index = accounts.firstIndex(where: { $0.id == signedIn.id }) {
                accounts[index] = signedIn
            } else {
                accounts.append(signedIn)
            }
        } else {
            accounts = [signedIn]
        }
        currentId = signedIn.id
        challenge = nil
        lastSessionCheck = Date()
        show(signedInPage() ?? signInPage())
    }

    // MARK: - Several accounts

    /// Shows another signed-in account.
    public func switchAccount(to id: String) {
        guard case .signedIn = page, accounts.contains(where: { $0.id == id }) else { return }
        currentId = id
        show(signedInPage() ?? signInPage())
    }

    /// "Add Account": the sign-in page, with the way back to the signed-in accounts.
    public func addAccount() {
        guard case .signedIn = page, service.keepsSeveralAccounts, !isSigningOut else { return }
        banner = nil
        show(signInPage())
    }

    /// "Back" on the sign-in page while accounts are signed in.
    public func backToAccounts() {
        guard case .signIn(let state) = page, !state.busy, let signedIn = signedInPage() else { return }
        show(signedIn)
    }

    /// Try Again where the account's details could not be fetched.
    public func reloadProfile() {
        guard case .signedIn(let state) = page, case .failed = state.profile else { return }
        profiles[state.current.id] = nil
        show(signedInPage() ?? signInPage())
    }

    /// Fetches who, where and which wallets for an account shown the first time. A failure is
    /// shown on the page; the session stays.
    private func loadProfile(_ account: SignedInAccount) {
        profiles[account.id] = .loading
        Task {
            let lookup: ProfileLookup
            do {
                lookup = .loaded(try await service.profile(of: account))
            } catch {
                lookup = .failed(message: describe(error).message)
            }
            guard accounts.contains(where: { $0.id == account.id }) else { return }
            profiles[account.id] = lookup
            if case .signedIn = page { show(signedInPage() ?? signInPage()) }
        }
    }

    // MARK: - Two-factor code

    public func submitCode(_ code: String) {
        guard let current = challenge, case .code = page, let verifier = service as? any TwoFactorSignIn else { return }
        Task {
            guard await desktop.keyringAvailable() else {
                report(KeyringUnavailableError()) { [weak self] in self?.submitCode(code) }
                return
            }
            do {
                showSignedIn(try await verifier.verify(code: code, for: current))
            } catch {
                let problem = describe(error)
                if problem.kind == .wrongCode {
                    show(.code(current, wrongCode: problem))
                } else {
                    challenge = nil
                    show(signInPage())
                    banner = problem.kind == .cancelled ? nil : problem
                    bannerIsKeyringAdvice = false
                    retry = nil
                    changed()
                }
            }
            settle()
        }
    }

    public func cancelCode() {
        guard case .code = page else { return }
        challenge = nil
        show(signInPage())
        settle()
    }

    // MARK: - Email link

    public func sendMagicLink(to email: String) {
        guard case .signIn(var state) = page, !state.busy, !state.waitingForKeyring, let links = service as? any EmailLinkSignIn
        else { return }
        banner = nil
        state.busy = true
        show(.signIn(state))
        Task {
            do {
                try await links.sendMagicLink(to: email)
                show(.emailSent(email: email))
            } catch {
                show(signInPage())
                report(error) { [weak self] in self?.sendMagicLink(to: email) }
            }
        }
    }

    /// Resend on "Check Your Email": another link to the same address. While it is sent, and after
    /// Portal's "too many" until the wait it names is over, Resend waits.
    public func resendMagicLink() {
        guard case .emailSent(let email) = page, !isResending, resendAllowedAfter.map({ Date() >= $0 }) ?? true,
            let links = service as? any EmailLinkSignIn
        else { return }
        isResending = true
        banner = nil
        changed()
        Task {
            do {
                try await links.sendMagicLink(to: email)
                isResending = false
                changed()
                onNotice?(.linkSent)
            } catch {
                isResending = false
                if let seconds = desktop.retryAfter(error) { holdResend(for: seconds) }
                report(error, retry: nil)
            }
        }
    }

    /// Resend is held back `seconds` (the backend's rate limit), then offered again.
    private func holdResend(for seconds: Double) {
        let until = Date().addingTimeInterval(seconds)
        resendAllowedAfter = until
        changed()
        Task { [weak self] in
            try? await Task.sleep(for: .seconds(seconds))
            guard let self, self.resendAllowedAfter == until else { return }
            self.resendAllowedAfter = nil
            self.changed()
        }
    }

    public func backFromEmail() {
        guard case .emailSent = page else { return }
        show(signInPage())
    }

    // MARK: - Sign out and sessions ending

    /// Signs out of the account shown; another signed-in account (if any) is shown next.
    public func signOut() {
        guard case .signedIn = page, !isSigningOut, let account = currentAccount else { return }
        isSigningOut = true
        changed()
        Task {
            do {
                try await service.signOut(account)
                remove(account.id)
                isSigningOut = false
                show(signedInPage() ?? signInPage())
                onNotice?(.signedOut)
            } catch {
                isSigningOut = false
                report(error) { [weak self] in self?.signOut() }
            }
            settle()
        }
    }

    /// The backend ended a session: with other accounts left, they stay shown and a notice says
    /// so; otherwise the "Session ended" page, whose Sign In Again signs in with the same provider.
    private func sessionInvalidated(_ id: String) {
        guard let account = accounts.first(where: { $0.id == id }) else { return }
        remove(id)
        let message = describe(SessionEndedError()).message
        guard case .signedIn = page, signedInPage() == nil else {
            // Another account stays shown, or the person is elsewhere (adding an account): a notice.
            if case .signedIn = page, let others = signedInPage() { show(others) }
            return onNotice?(.sessionEnded(message: message)) ?? ()
        }
        banner = nil
        show(.blocked(BlockedPageState(.sessionEnded(provider: account.provider), message: message)))
    }

    private func accountUpdated(_ account: SignedInAccount) {
        guard let index = accounts.firstIndex(where: { $0.id == account.id }) else { return }
        accounts[index] = account
        if case .signedIn = page { show(signedInPage() ?? signInPage()) }
    }

    private func remove(_ id: String) {
        accounts.removeAll { $0.id == id }
        profiles[id] = nil
        if currentId == id { currentId = accounts.first?.id }
    }

    /// The window became active: re-check the session shown (at most once a minute), so a session
    /// revoked meanwhile returns to Sign in instead of showing a stale "Signed in".
    public func windowActivated() {
        guard case .signedIn = page, let account = currentAccount,
            Date().timeIntervalSince(lastSessionCheck) > 60
        else { return }
        lastSessionCheck = Date()
        Task { try? await service.checkSession(account) }
    }

    /// The window closed: a sign-in still waiting is over.
    public func windowClosed() {
        waiting?.task?.cancel()
        waiting = nil
        service.cancelSignIn()
    }

    // MARK: - No keyring

    /// No Secret Service: the page waits for one, with the advice (Try Again checks again).
    private func waitForKeyring() {
        keyringMissing = true
        banner = nil
        // A code page keeps its challenge: it comes back once the keyring does.
        if case .code = page { pageBeforeKeyring = page }
        show(.blocked(BlockedPageState(.noKeyring, message: describe(KeyringUnavailableError()).message)))
    }

    /// Try Again, or the Secret Service's bus name came or went: once a keyring is there, what
    /// waited for it goes on (the saved sessions first, if they were never read).
    private func recheckKeyring(pressed: Bool = false) {
        guard keyringMissing else { return }
        Task {
            guard keyringMissing else { return }
            guard await desktop.keyringAvailable() else {
                if pressed { onNotice?(.keyringStillMissing) }
                return
            }
            guard keyringMissing else { return }
            keyringMissing = false
            defer { pageBeforeKeyring = nil }
            if bannerIsKeyringAdvice {
                banner = nil
                retry = nil
            }
            if restored {
                switch page {
                case .signIn: show(signedInPage() ?? signInPage())
                case .blocked(let state) where state.blocker == .noKeyring:
                    show(pageBeforeKeyring ?? signedInPage() ?? signInPage())
                default: changed()
                }
                settle()
            } else {
                start()
            }
        }
    }

    // MARK: - Blocking pages

    /// The one action of a blocking page: Try Again, Unlock, Sign In Again.
    public func blockedAction() {
        guard case .blocked(let state) = page else { return }
        switch state.blocker {
        case .noKeyring:
            recheckKeyring(pressed: true)
        case .keyringLocked:
            let action = retry
            retry = nil
            show(signedInPage() ?? signInPage())
            action?()
        case .sessionEnded(let provider):
            endedProvider = nil
            show(signInPage())
            if let provider, providers.contains(provider) { signIn(with: provider) }
        }
    }

    // MARK: - Banners

    public func bannerAction() {
        guard let current = banner else { return }
        banner = nil
        switch current.nextStep {
        case .tryAgain: retry?()
        case .signInAgain: if !isBusy { show(signInPage()) }
        case .dismiss: break
        }
        retry = nil
        changed()
    }

    public func dismissBanner() {
        banner = nil
        retry = nil
        changed()
    }

    /// "Make Default" on the scheme-handler warning.
    public func claimSchemeHandler() {
        do {
            try desktop.claimSchemeHandler()
        } catch {
            report(error, retry: nil)
        }
        foreignSchemeHandler = desktop.foreignSchemeHandler()
        changed()
    }

    // MARK: - Plumbing

    private var isBusy: Bool {
        switch page {
        case .loading, .completing, .setUp: return true
        default: return isSigningOut || keyringMissing
        }
    }

    /// Leaves a transient page and handles the URIs that waited meanwhile.
    private func settle() {
        if case .loading = page { show(signedInPage() ?? signInPage()) }
        while !held.isEmpty && !isBusy && confirming == nil {
            decide(held.removeFirst())
        }
        while !deferred.isEmpty && !isBusy && confirming == nil {
            receive(deferred.removeFirst())
        }
    }

    private func signInPage() -> Page {
        .signIn(
            SignInPageState(
                backend: service.backend, providers: providers, offersEmailLinks: offersEmailLinks,
                busy: false, canGoBack: !accounts.isEmpty, waitingForKeyring: keyringMissing))
    }

    private func signedInPage() -> Page? {
        guard let current = currentAccount else { return nil }
        return .signedIn(
            SignedInPageState(
                accounts: accounts, current: current, canAddAccounts: service.keepsSeveralAccounts,
                profile: profiles[current.id] ?? .loading))
    }

    private func describe(_ error: any Error) -> UserFacingError { desktop.describe(error, backend: service.backend) }

    private func report(_ error: any Error, retry: (@MainActor () -> Void)?) {
        let problem = describe(error)
        switch problem.kind {
        case .cancelled:
            return
        case .cancelledAtProvider:
            // Not an alarm: the sign-in page (shown already) is the next step.
            banner = nil
            changed()
            return onNotice?(.signInCancelled) ?? ()
        case .sessionEnded:
            banner = nil
            let provider = endedProvider
            endedProvider = nil
            return show(.blocked(BlockedPageState(.sessionEnded(provider: provider), message: problem.message)))
        case .keyringMissing:
            return waitForKeyring()
        case .keyringLocked where retry != nil:
            banner = nil
            self.retry = retry
            return show(.blocked(BlockedPageState(.keyringLocked, message: problem.message)))
        default:
            break
        }
        bannerIsKeyringAdvice = error is KeyringUnavailableError
        self.retry = retry
        banner =
            problem.nextStep == .tryAgain && retry == nil
            ? UserFacingError(message: problem.message, nextStep: .dismiss, kind: problem.kind) : problem
        changed()
    }

    private func show(_ newPage: Page) {
        page = newPage
        changed()
        if case .signedIn(let state) = newPage, profiles[state.current.id] == nil { loadProfile(state.current) }
    }

    private func changed() { onChange?() }
}
