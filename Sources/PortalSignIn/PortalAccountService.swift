import Foundation
import PortalAuth
import PortalAuthGNOME

/// `AccountService` on PortalAuth, wired to the desktop through PortalAuthGNOME: libsoup for HTTP,
/// GNOME Keyring for the session, the default browser through GIO, and a `RedirectInbox` that the
/// application's ::open feeds.
@MainActor
final class PortalAccountService: AccountService {
    private let configuration: PortalConfiguration
    private let transport = SoupTransport()
    private let inbox = RedirectInbox()
    private let browser = RememberingBrowser(GioBrowserLauncher())
    /// nil when the configuration was rejected; every call then reports `setupError`.
    private let auth: PortalAuth?
    private let setupError: Error?

    private var client: PortalClient?
    private var invalidation: InvalidationSubscription?
    private var challenges: [UUID: TotpRequiredResult] = [:]

    var onSessionInvalidated: (@MainActor () -> Void)?

    /// Configuration from the environment (PORTAL_API_HOST, …), then GSettings, then the defaults.
    static func makeDefault() -> AccountService {
        let configuration = PortalConfiguration.resolve(flags: [:], environment: ProcessInfo.processInfo.environment,
                                                        settings: SettingsLocation.read())
        return PortalAccountService(configuration: configuration)
    }

    init(configuration: PortalConfiguration) {
        self.configuration = configuration
        do {
            let auth = try PortalAuth(
                authEnvironmentId: configuration.authEnvironmentId, redirectUrl: configuration.redirectUrl,
                apiHost: configuration.apiHost,
                magicLink: MagicLinkConfig(fromEmail: configuration.magicLinkFromEmail,
                                           templateId: configuration.magicLinkTemplateId),
                isAccountAbstracted: configuration.isAccountAbstracted,
                transport: transport, sessionStore: KeyringSessionStore(sessionKey: configuration.sessionKey),
                browser: browser, redirects: inbox, logger: StandardErrorLogger.ifRequested())
            // Always offer the provider's account chooser: after signing out, another account is one click away.
            auth.prefersEphemeralWebBrowserSession = true
            self.auth = auth
            setupError = nil
        } catch {
            auth = nil
            setupError = error
        }
    }

    private func portal() throws -> PortalAuth {
        guard let auth else { throw setupError ?? PortalAuthSignInError.unavailable }
        return auth
    }

    // MARK: - AccountService

    func restore() async throws -> SignedInAccount? {
        guard let session = try await portal().restoreSession() else { return nil }
        let client = try adopt(session)
        do {
            let info = try await client.getClient()
            return SignedInAccount(endUserId: session.endUserId, clientId: info.id,
                                   isAccountAbstracted: info.isAccountAbstracted)
        } catch PortalRequestsError.unauthorized {
            // Portal no longer knows this session: forget it, so the next start does not try it again.
            try? await portal().clearPersistedSession()
            dropClient()
            throw SessionEnded()
        }
    }

    func signIn(with provider: SignInProvider) async throws -> SignInOutcome {
        let auth = try portal()
        browser.forget()
        let result = provider == .google ? try await auth.signInWithGoogle() : try await auth.signInWithApple()
        return try outcome(of: result)
    }

    var currentAuthorizeURL: URL? { browser.lastURL }

    func openAuthorizeURLAgain() async throws {
        guard let url = browser.lastURL else { return }
        try await browser.open(url)
    }

    func sendMagicLink(to email: String) async throws {
        try await portal().sendMagicLink(email: email)
    }

    func receive(_ uri: String) async throws -> SignInOutcome? {
        if inbox.deliver(uri) { return nil }   // the waiting signInWith* takes it
        guard let result = try await portal().handleRedirect(uri) else { return nil }
        return try outcome(of: result)
    }

    func verify(code: String, for challenge: CodeChallenge) async throws -> SignedInAccount {
        guard let pending = challenges[challenge.id] else { throw PortalAuthSignInError.callbackIncomplete }
        let result: AuthenticatedResult
        do {
            result = try await portal().verifyTotp(code, userJwt: pending.userJwt)
        } catch PortalRequestsError.unauthorized {
            throw WrongCode()   // Portal keeps the JWT usable: the user types again
        } catch PortalAuthError.rateLimited {
            challenges[challenge.id] = nil
            throw TooManyCodes()
        }
        challenges[challenge.id] = nil
        return try signedIn(result)
    }

    func checkSession() async throws {
        guard let client else { return }
        _ = try await client.getClient()
    }

    func signOut() async throws {
        try await portal().clearPersistedSession()
        client?.clearSession()
        dropClient()
    }

    // MARK: - Results

    private func outcome(of result: AuthResult) throws -> SignInOutcome {
        switch result {
        case .authenticated(let authenticated):
            return .signedIn(try signedIn(authenticated))
        case .totpRequired(let pending):
            let challenge = CodeChallenge(id: UUID(), totpLink: pending.totpLink, totpSecret: pending.totpSecret)
            challenges = [challenge.id: pending]   // only the newest sign-in's code is wanted
            return .needsCode(challenge)
        }
    }

    private func signedIn(_ result: AuthenticatedResult) throws -> SignedInAccount {
        _ = try adopt(result.session)
        return SignedInAccount(endUserId: result.session.endUserId, clientId: result.clientId,
                               isAccountAbstracted: result.isAccountAbstracted)
    }

    /// Makes `session` the current one, watched for Portal's 401.
    private func adopt(_ session: PortalSession) throws -> PortalClient {
        dropClient()
        let client = try PortalClient(session: session, apiHost: configuration.apiHost,
                                      authEnvironmentId: configuration.authEnvironmentId, transport: transport)
        invalidation = client.onSessionInvalidated { [weak self] in
            Task { @MainActor in self?.sessionWasInvalidated() }
        }
        self.client = client
        return client
    }

    private func dropClient() {
        invalidation?.cancel()
        invalidation = nil
        client = nil
    }

    private func sessionWasInvalidated() {
        dropClient()
        Task { @MainActor in try? await self.portal().clearPersistedSession() }
        onSessionInvalidated?()
    }

    // MARK: - Errors in the user's words

    func describe(_ error: Error) -> UserFacingError {
        switch error {
        case is WrongCode:
            return UserFacingError(message: tr("That code is not right. Check your authenticator app and enter the current code."),
                                   nextStep: .dismiss, isWrongCode: true)
        case is TooManyCodes:
            return UserFacingError(message: tr("Too many wrong codes. Start the sign-in again."), nextStep: .signInAgain)
        case is SessionEnded:
            return UserFacingError(message: tr("Your session has ended. Sign in again to continue."), nextStep: .dismiss)
        case is CancellationError:
            return UserFacingError(message: "", nextStep: .dismiss, isCancellation: true)
        case let error as PortalAuthSignInError:
            switch error {
            case .closed:
                return UserFacingError(message: tr("The sign-in was cancelled."), nextStep: .tryAgain)
            case .unavailable:
                return UserFacingError(message: tr("Your web browser could not be opened. Check that a default browser is set, then try again."), nextStep: .tryAgain)
            case .signInInProgress:
                return UserFacingError(message: tr("A sign-in is already running. Finish or cancel it first."), nextStep: .dismiss)
            case .callbackIncomplete:
                return UserFacingError(message: tr("The browser came back without a sign-in result for this app. Try again."), nextStep: .tryAgain)
            }
        case let error as PortalAuthError:
            switch error {
            case .authenticationFailed:
                return UserFacingError(message: tr("The sign-in was cancelled or refused in the browser. Try again, or choose another way to sign in."), nextStep: .tryAgain)
            case .rateLimited:
                return UserFacingError(message: tr("Too many sign-in emails were requested. Wait a minute, then try again."), nextStep: .tryAgain)
            case .authMethodUnavailable(let method):
                return UserFacingError(message: fill(tr("Signing in with %s is not enabled for this service. Choose another way to sign in."), method.displayName), nextStep: .dismiss)
            case .magicLinkNotConfigured:
                return UserFacingError(message: tr("Sign-in links by email are not set up for this service. Choose another way to sign in."), nextStep: .dismiss)
            case .sessionStorageFailure:
                return UserFacingError(message: tr("Your session could not be saved in the keyring. Unlock your login keyring, then try again."), nextStep: .tryAgain)
            case .invalidArgument(let name):
                return UserFacingError(message: fill(tr("The setting “%s” is not valid. Fix it in Preferences, then restart the app."), name), nextStep: .dismiss)
            default:
                return UserFacingError(message: tr("Portal's answer could not be used. Start the sign-in again."), nextStep: .tryAgain)
            }
        case let error as PortalRequestsError:
            switch error {
            case .unauthorized:
                return UserFacingError(message: tr("Portal did not accept the sign-in. The link may have expired or been used already. Sign in again."), nextStep: .signInAgain)
            case .internalServerError:
                return UserFacingError(message: tr("Portal had a problem. Try again in a moment."), nextStep: .tryAgain)
            default:
                return UserFacingError(message: tr("Portal rejected the request. Check the settings, then try again."), nextStep: .tryAgain)
            }
        case let error as PortalCredentialError where error.requiresReauthentication:
            return UserFacingError(message: tr("Your session has ended. Sign in again to continue."), nextStep: .signInAgain)
        case is TransportError:
            return UserFacingError(message: tr("Portal could not be reached. Check your network connection, then try again."), nextStep: .tryAgain)
        default:
            // The core's own message: English, but it says what to do and never holds a secret.
            return UserFacingError(message: error.localizedDescription, nextStep: .tryAgain)
        }
    }
}

private struct WrongCode: Error {}
private struct TooManyCodes: Error {}
private struct SessionEnded: Error {}

/// Opens URLs with GIO and remembers the last one, for "Copy Link" and "Open Again".
private final class RememberingBrowser: BrowserLauncher, @unchecked Sendable {
    private let launcher: BrowserLauncher
    private let lock = NSLock()
    private var remembered: URL?

    init(_ launcher: BrowserLauncher) { self.launcher = launcher }

    var lastURL: URL? { lock.withLock { remembered } }

    func forget() { lock.withLock { remembered = nil } }

    func open(_ url: URL) async throws {
        lock.withLock { remembered = url }
        try await launcher.open(url)
    }
}

/// The core's log lines (which never hold a secret) on stderr, when PORTAL_DEBUG is set.
private struct StandardErrorLogger: PortalAuthLogger {
    static func ifRequested() -> PortalAuthLogger? {
        ProcessInfo.processInfo.environment["PORTAL_DEBUG"] == nil ? nil : StandardErrorLogger()
    }
    func log(_ message: String) {
        FileHandle.standardError.write(Data("portal-sign-in: \(message)\n".utf8))
    }
}
