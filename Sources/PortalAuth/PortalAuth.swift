import FoundationEssentials
import Synchronization

/// Portal's client-auth flows for one auth environment: the Linux counterpart of the iOS
/// `PortalAuth` 8.x. It reaches the world only through the injected transport, store, browser
/// and loopback listener, and does no I/O while being created.
///
/// Hold one long-lived instance: it remembers the last grant it exchanged (the replay slot), so
/// a redirect delivered twice replays instead of failing Portal's single-use check.
public final class PortalAuth: Sendable {
    /// The auth environment (from Portal's dashboard) every call of this instance signs in to.
    public let authEnvironmentId: String
    /// Trimmed: Portal compares it byte for byte with the environment's allow list.
    public let redirectUrl: String
    /// `http://127.0.0.1:8790`, `https://api.portalhq.io`…
    public let apiBaseURL: URL

    let magicLink: MagicLinkConfig?
    let isAccountAbstracted: Bool?
    let api: PortalAPI
    let store: any PortalSessionStore
    let browser: (any BrowserLauncher)?
    /// Listens for the redirect itself when `redirectUrl` is a loopback URL (`http://127.0.0.1:PORT/PATH`).
    let loopback: (any LoopbackRedirectListening)?
    let logger: (any PortalAuthLogger)?
    let pendingStore: any PortalPendingSignInStore
    /// The clock pending sign-ins and user JWTs are checked against (injectable for tests).
    let now: @Sendable () -> Date

    /// Serialises everything that touches the replay slot or the store, in arrival order.
    let mutex = AsyncMutex()
    let replaySlot = ReplaySlot()
    /// Lets a sign-out win over an exchange or TOTP verification that overlaps it.
    let signOutFence = SignOutFence()
    let signInState = Mutex(SignInState())
    /// Tokens of sessions this instance made that were invalidated since, until the store is known
    /// not to hold them (memory only).
    let endedSessionTokens = Mutex<Set<String>>([])
    /// The browser sign-in `signInWith*` runs, which the app hands the desktop's URLs.
    let browserSignIns = BrowserSignInSlot<IncomingRedirect>()
    /// The sign-in this instance waits for (mirrored in `pendingStore` for the next run's question).
    /// Memory only: it ends with the process however the process ends (quit, a signal, a crash).
    let pendingState = Mutex<PortalPendingSignIn?>(nil)
    /// The live record an earlier run left in `pendingStore`: never solicits, only names what it was.
    let earlierPendingSignIn: PortalPendingSignIn?

    struct SignInState {
        var prefersEphemeralWebBrowserSession = false
        var anchor: (any PresentationAnchor)?
    }

    /// An instance for one auth environment, sending through `transport` and saving sessions to
    /// `sessionStore`; give it a `browser` (and a `loopback` listener for an `http://127.0.0.1`
    /// `redirectUrl`) for `signInWith*`, and a `magicLink` configuration for `sendMagicLink`.
    ///
    /// - Throws: `PortalAuthError.invalidArgument(name:)` for a blank `authEnvironmentId`
    ///   (checked first), a blank `redirectUrl`, or an `apiHost` that is blank, malformed or
    ///   would use plain `http` to a host other than loopback.
    public init(
        authEnvironmentId: String, redirectUrl: String, apiHost: String = "api.portalhq.io",
        magicLink: MagicLinkConfig? = nil, isAccountAbstracted: Bool? = nil,
        transport: any HTTPTransport, sessionStore: any PortalSessionStore,
        browser: (any BrowserLauncher)? = nil,
        loopback: (any LoopbackRedirectListening)? = nil,
        logger: (any PortalAuthLogger)? = nil,
        pendingSignIns: any PortalPendingSignInStore = InMemoryPortalPendingSignInStore(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        guard Self.isValidAuthEnvironmentId(authEnvironmentId) else { throw PortalAuthError.invalidArgument(name: "authEnvironmentId") }
        guard !redirectUrl.isBlank else { throw PortalAuthError.invalidArgument(name: "redirectUrl") }
        let environment = authEnvironmentId.trimmed
        let baseURL = try ApiHost.baseURL(from: apiHost)

        self.authEnvironmentId = environment
        self.redirectUrl = redirectUrl.trimmed
        self.apiBaseURL = baseURL
        self.magicLink = magicLink
        self.isAccountAbstracted = isAccountAbstracted
        self.api = PortalAPI(baseURL: baseURL, authEnvironmentId: environment, transport: transport)
        self.store = sessionStore
        self.browser = browser
        self.loopback = loopback
        self.logger = logger
        self.pendingStore = pendingSignIns
        self.now = now
        // What an earlier run was waiting for when it ended: it only words the question a matching
        // redirect gets. Only `pendingState`, this process's memory, makes a redirect solicited.
        if let kept = pendingSignIns.load(), kept.authEnvironmentId == environment, kept.isLive(at: now()) {
            earlierPendingSignIn = kept
        } else {
            earlierPendingSignIn = nil
        }
    }

    /// When true, `signInWith*` asks the provider to show its account chooser
    /// (`prompt=select_account`) instead of reusing the account the browser remembers.
    /// Read at the start of each sign-in.
    public var prefersEphemeralWebBrowserSession: Bool {
        get { signInState.withLock { $0.prefersEphemeralWebBrowserSession } }
        set { signInState.withLock { $0.prefersEphemeralWebBrowserSession = newValue } }
    }

    // MARK: Methods

    /// The sign-in methods this environment allows (`GET /api/v3/auth/methods`), for showing only the
    /// buttons that work. Unknown method names are skipped; a missing `autoCreateWallet` is false.
    public func getMethods() async throws -> AuthMethodsResult {
        let data = try await api.methods()
        return AuthMethodsResult(
            allowedAuthMethods: (data.allowedAuthMethods ?? []).compactMap(AuthMethod.init(rawValue:)),
            autoCreateWallet: data.autoCreateWallet ?? false
        )
    }

    // MARK: Authorize URLs

    /// A fresh Google authorize URL for a browser of your choice; finish with `handleRedirect`.
    /// Never cache it: its `state` is single use.
    public func loginWithGoogle() async throws -> AuthorizeUrlResult {
        try await login(with: .google)
    }

    /// A fresh Apple authorize URL; see `loginWithGoogle()`.
    public func loginWithApple() async throws -> AuthorizeUrlResult {
        try await login(with: .apple)
    }

    /// A fresh authorize URL for `method`'s provider; see `loginWithGoogle()`. Email links have
    /// none: `.authMethodUnavailable`.
    public func login(with method: AuthMethod) async throws -> AuthorizeUrlResult {
        let result = try await authorizeUrl(for: method)
        _ = beginPendingSignIn(.oauth(method))
        return result
    }

    /// `redirectUrl`: the one this sign-in sends (a loopback sign-in's names the port it bound).
    func authorizeUrl(for method: AuthMethod, redirectUrl: String? = nil) async throws -> AuthorizeUrlResult {
        guard let provider = method.provider else { throw PortalAuthError.authMethodUnavailable(method) }
        let urls = try await api.oauthUrls(redirectUrl: redirectUrl ?? self.redirectUrl, isAccountAbstracted: isAccountAbstracted)
        // The answer has a field per provider Portal offers.
        let url = (urls[provider] ?? "").trimmed
        guard !url.isEmpty else {
            log("\(method.rawValue) is not enabled for auth environment \(authEnvironmentId)")
            throw PortalAuthError.authMethodUnavailable(method)
        }
        // Whatever the server answers is handed to the desktop's default handler: only a web page
        // may go there, never file:, smb:, apt: or plain http to another machine.
        guard URLPolicy.isSecureOrLoopback(url) else {
            log("refused an authorize URL that is neither https nor http to this machine")
            throw PortalAuthError.unsafeAuthorizeUrl(scheme: URLText(url).schemeName ?? "")
        }
        return AuthorizeUrlResult(authorizeUrl: url)
    }

    // MARK: Magic link

    /// Emails a sign-in link to `email` (trimmed and lowercased) that opens `redirectUrl`; finish
    /// with `handleRedirect`. Every call sends a real, rate-limited email, so it is never retried
    /// automatically.
    ///
    /// - Throws: `PortalAuthError.magicLinkNotConfigured` without a `MagicLinkConfig`;
    ///   `.invalidArgument(name: "email")` for a blank address (nothing sent); `.rateLimited` when
    ///   Portal refuses more emails for now; `.accountAbstractionUnavailable(message:)` for a 400.
    public func sendMagicLink(_ email: String) async throws {
        guard let magicLink else { throw PortalAuthError.magicLinkNotConfigured }
        let address = email.trimmed.lowercased()
        guard !address.isEmpty else { throw PortalAuthError.invalidArgument(name: "email") }
        let body = PortalWire.MagicLinkBody(
            email: address, redirectUrl: redirectUrl, fromEmail: magicLink.fromEmail,
            templateId: magicLink.templateId, isAccountAbstracted: isAccountAbstracted
        )
        try await api.sendMagicLink(body)
        _ = beginPendingSignIn(.magicLink(email: address))
        log("magic link sent")
    }

    /// The earlier spelling of `sendMagicLink(_:)`.
    @available(*, deprecated, renamed: "sendMagicLink(_:)")
    public func sendMagicLink(email: String) async throws {
        try await sendMagicLink(email)
    }

    // MARK: Helpers

    func log(_ message: String) {
        logger?.log(SecretRedaction.redact(message))
    }
}
