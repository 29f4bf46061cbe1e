import FoundationEssentials
import PortalAuth
import AuthPlatform
import SignInFlow

/// The Portal backend of the sign-in window: `PortalAuth` wired to the desktop through
/// AuthPlatform (libsoup, GNOME Keyring, the default browser through GIO, the pending sign-in
/// kept under `$XDG_STATE_HOME`) and a `RedirectInbox` the flow feeds with the waiting sign-in's redirect,
/// or, with a loopback redirect URL, a listener on 127.0.0.1 that receives it itself.
@MainActor
final class PortalAccountService: AccountService {
    private let configuration: PortalConfiguration
    private let transport: SoupTransport
    private let inbox = RedirectInbox()
    private let browser = RememberingBrowser(GioBrowserLauncher())
    private let schemeHandler = SchemeHandler()
    /// The Secret Service's bus name, watched for the flow while the app runs.
    private var keyringWatch: SecretServiceWatch?
    /// nil when the configuration was rejected; every call then reports `setupError`.
    private let auth: PortalAuth?
    private let setupError: (any Error)?

    private var client: PortalClient?
    private var invalidation: InvalidationSubscription?
    private var challenges: [UUID: TotpRequiredResult] = [:]

    var onSessionInvalidated: (@MainActor (String) -> Void)?
    /// Portal sessions do not change while the app runs.
    var onAccountUpdated: (@MainActor (SignedInAccount) -> Void)?
    /// One Portal session per auth environment and session key: a new sign-in replaces it (after asking).
    let keepsSeveralAccounts = false
    let backend = Backend.portal

    /// Configuration from the environment (PORTAL_API_HOST, …), then GSettings, then the defaults.
    static func makeDefault() -> PortalAccountService {
        let environment = ProcessInfo.processInfo.environment, settings = SettingsLocation.read()
        return PortalAccountService(
            configuration: PortalConfiguration.resolve(flags: [:], environment: environment, settings: settings),
            transport: TransportConfiguration.resolve(flags: [:], environment: environment, settings: settings))
    }

    init(configuration: PortalConfiguration, transport: TransportConfiguration = TransportConfiguration()) {
        self.configuration = configuration
        self.transport = SoupTransport(configuration: transport)
        do {
            let auth = try PortalAuth(
                authEnvironmentId: configuration.authEnvironmentId, redirectUrl: configuration.redirectUrl,
                apiHost: configuration.apiHost,
                magicLink: MagicLinkConfig(fromEmail: configuration.magicLinkFromEmail,
                                           templateId: configuration.magicLinkTemplateId),
                isAccountAbstracted: configuration.isAccountAbstracted,
                transport: self.transport, sessionStore: KeyringSessionStore(sessionKey: configuration.sessionKey),
                browser: browser, redirects: inbox, loopback: LoopbackRedirectServer(page: Self.loopbackPage),
                logger: DebugLog.ifRequested(),
                pendingSignIns: PendingSignInFile(authEnvironmentId: configuration.authEnvironmentId))
            // Always offer the provider's account chooser: after signing out, another account is one click away.
            auth.prefersEphemeralWebBrowserSession = true
            self.auth = auth
            setupError = nil
        } catch {
            auth = nil
            setupError = error
        }
    }

    /// What the browser tab shows once a loopback redirect (`http://127.0.0.1:PORT/PATH`) arrived.
    private static var loopbackPage: LoopbackRedirectServer.Page {
        // TRANSLATORS: the language code of this translation (de, fr…), for the browser page's lang attribute.
        LoopbackRedirectServer.Page(language: tr("en"), title: tr("Sign-in finished"),
                                    message: tr("You can close this tab and go back to Portal Sign-In."))
    }

    private func portal() throws -> PortalAuth {
        guard let auth else { throw setupError ?? PortalAuthSignInError.unavailable }
        return auth
    }

    // MARK: - Sign-in

    /// The buttons the environment enables (`getMethods`); all of them when it cannot be asked,
    /// so the person still gets an error that says why when they try.
    func providers() async -> [SignInProvider] {
        guard let methods = try? await portal().getMethods().allowedAuthMethods else { return AuthMethod.providers.compactMap(\.provider) }
        offersEmailLinks = methods.contains(.emailMagicLink)
        return AuthMethod.providers.filter { methods.contains($0) }.compactMap(\.provider)
    }

    private(set) var offersEmailLinks = true

    func restore() async throws -> [SignedInAccount] {
        guard let session = try await portal().restoreSession() else { return [] }
        let client = try adopt(session)
        do {
            let info = try await client.getClient()
            return [Self.account(endUserId: session.endUserId, clientId: info.id, isAccountAbstracted: info.isAccountAbstracted)]
        } catch PortalRequestsError.unauthorized {
            // Portal no longer knows this session: forget it, so the next start does not try it again.
            try? await portal().clearPersistedSession()
            dropClient()
            throw SessionEndedError()
        }
    }

    func signIn(with provider: SignInProvider) async throws -> SignInOutcome {
        let auth = try portal()
        browser.forget()
        switch provider {
        case .google: return try outcome(of: try await auth.signInWithGoogle())
        case .apple: return try outcome(of: try await auth.signInWithApple())
        case .discord, .x: throw PortalAuthSignInError.unavailable   // Turnkey's providers
        }
    }

    var currentAuthorizeURL: URL? { browser.lastURL }

    func openAuthorizeURLAgain() async throws {
        guard let url = browser.lastURL else { return }
        try await browser.open(url)
    }

    func cancelSignIn() {
        auth?.cancelPendingSignIn()
    }

    func sendMagicLink(to email: String) async throws {
        try await portal().sendMagicLink(email: email)
    }

    // MARK: - Redirects

    func classify(_ uri: String) -> IncomingURI {
        guard let incoming = auth?.incomingRedirect(uri) else { return .notOurs }
        if incoming.isError { return .failure(solicited: incoming.isSolicited) }
        let method: SignInMethod = incoming.method?.provider.map { .provider($0) } ?? .emailLink(email: incoming.email)
        let solicitation: Solicitation = incoming.isRepeat ? .repeated : incoming.isSolicited ? .started
            : incoming.startedBeforeRestart ? .startedBeforeRestart : .unsolicited
        return .signIn(method, solicitation)
    }

    func deliverToWaitingSignIn(_ uri: String) {
        inbox.deliver(uri)
    }

    func complete(_ uri: String) async throws -> SignInOutcome {
        guard let result = try await portal().handleRedirect(uri) else { throw PortalAuthSignInError.callbackIncomplete }
        return try outcome(of: result)
    }

    func verify(code: String, for challenge: CodeChallenge) async throws -> SignedInAccount {
        guard let pending = challenges[challenge.id] else { throw PortalAuthSignInError.callbackIncomplete }
        let result: AuthenticatedResult
        do {
            result = try await portal().verifyTotp(code, userJwt: pending.userJwt)
        } catch PortalRequestsError.unauthorized {
            // Portal keeps the JWT usable: the person types the code again.
            throw UserFacingError(message: tr("That code is not right. Check your authenticator app and enter the current code."),
                                  nextStep: .dismiss, kind: .wrongCode)
        } catch PortalAuthError.rateLimited {
            challenges[challenge.id] = nil
            throw UserFacingError(message: tr("Too many wrong codes. Start the sign-in again."), nextStep: .signInAgain, kind: .tooManyCodes)
        }
        challenges[challenge.id] = nil
        return try signedIn(result)
    }

    // MARK: - The session

    func checkSession(_ account: SignedInAccount) async throws {
        guard let client else { return }
        _ = try await client.getClient()
    }

    func signOut(_ account: SignedInAccount) async throws {
        do { try await portal().clearPersistedSession() } catch { throw SignOutError(underlying: error) }
        client?.clearSession()
        dropClient()
    }

    func foreignSchemeHandler() -> String? { schemeHandler.foreignHandlerName() }

    func claimSchemeHandler() throws { try schemeHandler.claim() }

    func describe(_ error: any Error) -> UserFacingError { UserFacingErrors.describe(error) }

    func keyringAvailable() async -> Bool { await SecretServicePresence.isAvailable() }

    func watchKeyring(_ changed: @escaping @MainActor @Sendable () -> Void) {
        keyringWatch = SecretServiceWatch { Task { @MainActor in changed() } }
    }

    // MARK: - Results

    private func outcome(of result: AuthResult) throws -> SignInOutcome {
        switch result {
        case .authenticated(let authenticated):
            return .signedIn(try signedIn(authenticated))
        case .totpRequired(let pending):
            let challenge = CodeChallenge(totpLink: pending.totpLink, totpSecret: pending.totpSecret)
            challenges = [challenge.id: pending]   // only the newest sign-in's code is wanted
            return .needsCode(challenge)
        }
    }

    private func signedIn(_ result: AuthenticatedResult) throws -> SignedInAccount {
        _ = try adopt(result.session)
        return Self.account(endUserId: result.session.endUserId, clientId: result.clientId,
                            isAccountAbstracted: result.isAccountAbstracted)
    }

    private static func account(endUserId: String, clientId: String?, isAccountAbstracted: Bool?) -> SignedInAccount {
        SignedInAccount(id: endUserId, title: endUserId,
                        details: [.endUser(endUserId), .client(clientId), .accountAbstraction(isAccountAbstracted)])
    }

    /// Makes `session` the current one, watched for Portal's 401.
    private func adopt(_ session: PortalSession) throws -> PortalClient {
        dropClient()
        let client = try PortalClient(session: session, apiHost: configuration.apiHost,
                                      authEnvironmentId: configuration.authEnvironmentId, transport: transport)
        let endUserId = session.endUserId
        invalidation = client.onSessionInvalidated { [weak self] in
            Task { @MainActor in self?.sessionWasInvalidated(endUserId) }
        }
        self.client = client
        return client
    }

    private func dropClient() {
        invalidation?.cancel()
        invalidation = nil
        client = nil
    }

    private func sessionWasInvalidated(_ endUserId: String) {
        dropClient()
        Task { @MainActor in try? await self.portal().clearPersistedSession() }
        onSessionInvalidated?(endUserId)
    }
}
