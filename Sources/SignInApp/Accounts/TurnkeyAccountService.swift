import FoundationEssentials
import AuthPlatform
import SignInFlow
import TurnkeyAuth

/// The Turnkey backend of the sign-in window: `TurnkeyAuth` wired to the desktop (libsoup, GNOME
/// Keyring for sessions, keys and pending sign-ins, libcrypto, the default browser through GIO).
///
/// The app owns the browser: a sign-in is `loginURL` + the redirect the flow hands over +
/// `handleRedirect`, so the service knows every `state` it issued. A callback whose state it did
/// not issue can never finish (its key and verifier do not exist): it is refused, nothing sent.
/// Several sessions live side by side under session keys named after their provider; each is
/// refreshed (stamp_login, a new key) before it expires while the app runs.
@MainActor
final class TurnkeyAccountService: AccountService {
    let backend = Backend.turnkey
    let keepsSeveralAccounts = true
    let offersEmailLinks = false

    private let configuration: TurnkeyConfiguration
    private let browser = RememberingBrowser(GioBrowserLauncher())
    private let schemeHandler = SchemeHandler()
    /// The Secret Service's bus name, watched for the flow while the app runs.
    private var keyringWatch: SecretServiceWatch?
    private let refreshPolicy: RefreshPolicy
    private let auth: TurnkeyAuth?
    private let setupError: (any Error)?

    /// The sign-ins this app can finish: state → provider. This run's, and those an earlier run (or
    /// the CLI) left in the keyring, which finish only after the person's Continue: whether a
    /// sign-in is this run's is the core's `isStartedHere`, kept in this process's memory.
    private var started: [String: TurnkeyProvider] = [:]
    /// The running `signIn(with:)` and where its redirect goes.
    private var waiting: WaitingSignIn?
    private var refreshTasks: [String: Task<Void, Never>] = [:]
    /// Who each session belongs to, as last fetched: a refresh changes the key, not the person.
    private var facts: [String: AccountFacts] = [:]

    var onSessionInvalidated: (@MainActor (String) -> Void)?
    var onAccountUpdated: (@MainActor (SignedInAccount) -> Void)?

    /// Configuration from the environment (TURNKEY_AUTH_PROXY_URL, …), then GSettings, then the emulator's.
    static func makeDefault() -> TurnkeyAccountService {
        let environment = ProcessInfo.processInfo.environment, settings = SettingsLocation.read()
        let configuration = TurnkeyConfiguration.resolve(flags: [:], environment: environment, settings: settings)
        return TurnkeyAccountService(configuration: configuration, refreshPolicy: RefreshPolicy(environment: environment),
                                     transport: TransportConfiguration.resolve(flags: [:], environment: environment, settings: settings))
    }

    /// `transport`: the extra CA file and the request deadline, shared with the Portal backend.
    init(configuration: TurnkeyConfiguration, refreshPolicy: RefreshPolicy, transport: TransportConfiguration = TransportConfiguration()) {
        self.configuration = configuration
        self.refreshPolicy = refreshPolicy
        do {
            auth = try TurnkeyAuthFactory.make(configuration, logger: DebugLog.ifRequested(),
                                               transport: SoupTransport(configuration: transport))
            setupError = nil
        } catch {
            auth = nil
            setupError = error
        }
    }

    private func turnkey() throws -> TurnkeyAuth {
        guard let auth else { throw setupError ?? TurnkeySignInError.unavailable }
        return auth
    }

    // MARK: - Providers and restore

    func providers() async -> [SignInProvider] {
        guard let enabled = try? await turnkey().providers().enabledProviders else { return TurnkeyProvider.allCases.map(\.signInProvider) }
        return enabled.map(\.signInProvider).sorted()
    }

    func restore() async throws -> [SignedInAccount] {
        let auth = try turnkey()
        try await auth.purgeExpired()
        // A sign-in started before a restart can still finish here within its hour, once the person says so.
        for pending in try await auth.pendingSignIns() { started[pending.state] = pending.provider }
        var accounts: [SignedInAccount] = []
        var ended = 0
        for session in try await auth.sessions() {
            do {
                try await fetchFacts(session)
                accounts.append(signedInAccount(session))
                scheduleRefresh(session)
            } catch where Self.sessionRefused(error) {
                // Turnkey no longer accepts it (expired there, or revoked): forget it.
                try? await auth.signOut(sessionKey: session.sessionKey)
                ended += 1
            }
        }
        if accounts.isEmpty, ended > 0 { throw SessionEndedError() }
        return accounts
    }

    // MARK: - Sign-in

    func signIn(with provider: SignInProvider) async throws -> SignInOutcome {
        let auth = try turnkey()
        guard let turnkeyProvider = TurnkeyProvider(provider) else { throw TurnkeySignInError.unavailable }
        guard waiting == nil else { throw TurnkeySignInError.signInInProgress }
        browser.forget()
        let login = try await auth.loginURL(for: turnkeyProvider)
        started[login.state] = turnkeyProvider
        let wait = WaitingSignIn()
        waiting = wait
        defer { waiting = nil }
        do {
            try await browser.open(login.authorizeUrl)
        } catch {
            await end(login.state)
            throw TurnkeySignInError.unavailable
        }
        let callback: String
        do {
            callback = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { wait.await(continuation) }
                }
            } onCancel: {
                Task { @MainActor in wait.resolve(.failure(CancellationError())) }
            }
        } catch {
            await end(login.state)
            throw TurnkeySignInError.closed
        }
        return try await exchange(callback, provider: turnkeyProvider)
    }

    var currentAuthorizeURL: URL? { browser.lastURL }

    func openAuthorizeURLAgain() async throws {
        guard let url = browser.lastURL else { return }
        try await browser.open(url)
    }

    func cancelSignIn() {
        resumeWaiting(with: .failure(CancellationError()))
    }

    func sendMagicLink(to email: String) async throws {
        throw TurnkeySignInError.unavailable   // Turnkey's email sign-in is not part of this app
    }

    // MARK: - Redirects

    func classify(_ uri: String) -> IncomingURI {
        guard let auth, let callback = auth.incomingCallback(uri) else { return .notOurs }
        guard let state = callback.state, let provider = started[state] else {
            // Not a state this app issued: it can never finish here.
            return callback.isError ? .failure(solicited: false) : .refused(nil)
        }
        if callback.isError { return .failure(solicited: callback.isStartedHere) }
        let method = SignInMethod.provider(provider.signInProvider)
        if auth.hasFinished(state: state) { return .signIn(method, .repeated) }
        return .signIn(method, callback.isStartedHere ? .started : .startedBeforeRestart)
    }

    func deliverToWaitingSignIn(_ uri: String) {
        resumeWaiting(with: .success(uri))
    }

    func complete(_ uri: String) async throws -> SignInOutcome {
        guard let state = try turnkey().incomingCallback(uri)?.state, let provider = started[state] else {
            throw RefusedSignInLinkError(method: nil)
        }
        return try await exchange(uri, provider: provider)
    }

    func verify(code: String, for challenge: CodeChallenge) async throws -> SignedInAccount {
        throw TurnkeySignInError.unavailable   // Turnkey's social logins have no two-factor step here
    }

    // MARK: - Sessions

    func checkSession(_ account: SignedInAccount) async throws {
        do {
            _ = try await turnkey().whoami(sessionKey: account.id)
        } catch where Self.sessionRefused(error) {
            await sessionEnded(account.id)
        }
    }

    func signOut(_ account: SignedInAccount) async throws {
        refreshTasks.removeValue(forKey: account.id)?.cancel()
        do { try await turnkey().signOut(sessionKey: account.id) } catch { throw SignOutError(underlying: error) }
        facts.removeValue(forKey: account.id)
    }

    func foreignSchemeHandler() -> String? { schemeHandler.foreignHandlerName() }

    func claimSchemeHandler() throws { try schemeHandler.claim() }

    func describe(_ error: any Error) -> UserFacingError { UserFacingErrors.describe(error, service: .turnkey) }

    func keyringAvailable() async -> Bool { await SecretServicePresence.isAvailable() }

    func watchKeyring(_ changed: @escaping @MainActor @Sendable () -> Void) {
        keyringWatch = SecretServiceWatch { Task { @MainActor in changed() } }
    }

    // MARK: - Plumbing

    private func exchange(_ callback: String, provider: TurnkeyProvider) async throws -> SignInOutcome {
        let auth = try turnkey()
        let sessionKey = try await freeSessionKey(for: provider)
        guard case .authenticated(let result)? = try await auth.handleRedirect(callback, sessionKey: sessionKey) else {
            throw RefusedSignInLinkError(method: .provider(provider.signInProvider))
        }
        if let state = auth.incomingCallback(callback)?.state { started.removeValue(forKey: state) }
        let session = result.session
        scheduleRefresh(session)
        // Signed in and saved: a failing lookup of names only leaves the page with IDs.
        if (try? await fetchFacts(session, provider: provider)) == nil { facts[session.sessionKey] = AccountFacts(provider: provider) }
        return .signedIn(signedInAccount(session))
    }

    /// The configured session key when it is free, else the next of "key-2", "key-3"…: another
    /// sign-in adds a session and never replaces one.
    private func freeSessionKey(for provider: TurnkeyProvider) async throws -> String {
        let auth = try turnkey()
        let base = auth.configuration.defaultSessionKey
        let taken = Set(try await auth.sessionKeys())
        if !taken.contains(base) { return base }
        var number = 2
        while taken.contains("\(base)-\(number)") { number += 1 }
        return "\(base)-\(number)"
    }

    private func resumeWaiting(with result: Result<String, any Error>) {
        waiting?.resolve(result)
    }

    /// Ends a sign-in that will not finish: its record and key leave the keyring.
    private func end(_ state: String) async {
        started.removeValue(forKey: state)
        try? await auth?.cancelSignIn(state: state)
    }

    /// The account as Turnkey describes it: organization (whoami) and user (get_user, whose linked
    /// identities name the provider after a restart).
    private func fetchFacts(_ session: TurnkeySession, provider: TurnkeyProvider? = nil) async throws {
        let auth = try turnkey()
        let whoami = try await auth.whoami(sessionKey: session.sessionKey)
        let user = try await auth.user(sessionKey: session.sessionKey)
        facts[session.sessionKey] = AccountFacts(whoami: whoami, user: user, provider: provider ?? user.providers.first)
    }

    /// The account from what is known of it (IDs only when names could not be fetched).
    private func signedInAccount(_ session: TurnkeySession) -> SignedInAccount {
        let known = facts[session.sessionKey] ?? AccountFacts()
        let name = known.user?.userName ?? known.whoami?.username ?? known.user?.userEmail ?? session.userId
        let signInProvider = known.provider?.signInProvider
        var details: [AccountDetail] = [.organization(known.whoami?.organizationName ?? session.organizationId), .user(name)]
        if let signInProvider { details.append(.provider(signInProvider)) }
        details.append(.sessionExpires(session.expiresAt))
        // Two sessions of one person differ by provider; the list names both.
        let title = signInProvider.map { "\(name) · \($0.displayName)" } ?? name
        return SignedInAccount(id: session.sessionKey, title: title, details: details)
    }

    /// Refreshes `session` before it expires while the app runs (a new key each time); a refused
    /// refresh ends the session and returns the person to the sign-in page with a message.
    private func scheduleRefresh(_ session: TurnkeySession) {
        refreshTasks[session.sessionKey]?.cancel()
        let delay = refreshPolicy.delay(until: session.expiresAt, now: Date())
        refreshTasks[session.sessionKey] = Task { [weak self] in
            try? await Task.sleep(for: .seconds(delay))
            guard !Task.isCancelled else { return }
            await self?.refresh(session)
        }
    }

    private func refresh(_ session: TurnkeySession) async {
        guard let auth else { return }
        do {
            let renewed = try await auth.refreshSession(sessionKey: session.sessionKey)
            scheduleRefresh(renewed)
            onAccountUpdated?(signedInAccount(renewed))
        } catch where Self.sessionRefused(error) || renewedTooLate(session) {
            await sessionEnded(session.sessionKey)
        } catch {
            // The network failed: try again shortly while the session lasts.
            refreshTasks[session.sessionKey] = Task { [weak self] in
                try? await Task.sleep(for: .seconds(RefreshPolicy.retrySeconds))
                guard !Task.isCancelled else { return }
                await self?.refresh(session)
            }
        }
    }

    private func renewedTooLate(_ session: TurnkeySession) -> Bool { session.isExpired(at: Date()) }

    private func sessionEnded(_ sessionKey: String) async {
        refreshTasks.removeValue(forKey: sessionKey)?.cancel()
        facts.removeValue(forKey: sessionKey)
        try? await auth?.signOut(sessionKey: sessionKey)
        onSessionInvalidated?(sessionKey)
    }

    /// Turnkey refused the session (expired there, revoked) or it is gone here: only a new sign-in helps.
    private static func sessionRefused(_ error: any Error) -> Bool {
        switch error {
        case TurnkeyRequestError.unauthorized: return true
        case TurnkeyAuthError.sessionExpired, TurnkeyAuthError.sessionNotFound, TurnkeyAuthError.keyNotFound: return true
        default: return false
        }
    }
}

/// What Turnkey said about a session's person.
private struct AccountFacts {
    var whoami: TurnkeyWhoami?
    var user: TurnkeyUser?
    var provider: TurnkeyProvider?
}

/// Where the waiting sign-in's redirect goes. A redirect can arrive while the browser is still
/// opening (before anyone awaits it): it is kept until then, never lost.
@MainActor
private final class WaitingSignIn {
    private var continuation: CheckedContinuation<String, any Error>?
    private var early: Result<String, any Error>?

    func await(_ continuation: CheckedContinuation<String, any Error>) {
        if let early {
            self.early = nil
            continuation.resume(with: early)
        } else {
            self.continuation = continuation
        }
    }

    func resolve(_ result: Result<String, any Error>) {
        if let continuation {
            self.continuation = nil
            continuation.resume(with: result)
        } else if early == nil {
            early = result
        }
    }
}

/// When a session is refreshed: with a third of its remaining life left, and at least 5 seconds
/// before it expires (`PORTAL_TURNKEY_REFRESH_AT` = seconds before expiry overrides the third,
/// for tests that cannot wait a quarter of an hour).
struct RefreshPolicy: Sendable {
    static let retrySeconds: Double = 30
    let secondsBeforeExpiry: Double?

    init(environment: [String: String]) {
        secondsBeforeExpiry = environment["PORTAL_TURNKEY_REFRESH_AT"].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil }
    }

    func delay(until expiry: Date, now: Date) -> Double {
        let remaining = expiry.timeIntervalSince(now)
        let margin = max(5, secondsBeforeExpiry ?? remaining / 3)
        return max(0, remaining - margin)
    }
}
