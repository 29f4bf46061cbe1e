import FoundationEssentials
import Synchronization

/// Turnkey's social sign-in and its session state, as the SDK's `TurnkeyContext`: configure it once
/// with `configure(_:services:)` (on a GNOME desktop PortalAuthGNOME's `configure(_:)`), then use
/// `shared`. It signs in (`handleGoogleOAuth`, `handleAppleOAuth`, `handleDiscordOAuth`,
/// `handleXOauth`, `completeOAuth`), keeps sessions (`storeSession`, `refreshSession`,
/// `clearSession`), refreshes a session just before it expires, and after each sign-in or restore
/// holds the user and their wallets.
///
/// Linux has no Combine: the state (`authState`, `selectedSessionKey`, `session`, `user`,
/// `wallets`) is plain properties, and `onStateChange` is called after each change, on the task that
/// made it (hop to the main loop before touching widgets).
public final class TurnkeyContext: Sendable {
    /// Whether a session is active; `.loading` until the stored sessions have been read at start-up.
    public enum AuthState: Sendable, Equatable {
        /// The stored sessions are still being read.
        case loading
        /// A session is active.
        case authenticated
        /// No session is active.
        case unAuthenticated
    }

    /// What the context reaches the world through: the same pieces a `TurnkeyAuth` takes, and where
    /// the hosted origin page and the Discord and X pages are when they are not Turnkey's and the
    /// providers' own (the emulator's).
    public struct Services: Sendable {
        /// Where the Auth Proxy and API requests go (libsoup on the desktop).
        public var transport: any HTTPTransport
        /// Where sessions, keys and pending sign-ins are kept (GNOME Keyring on the desktop).
        public var stores: TurnkeyStores
        /// P-256 and SHA-256 (libcrypto on the desktop).
        public var crypto: any CryptoProvider
        /// Opens the sign-in in the user's browser; without one, sign-ins are unavailable.
        public var browser: (any BrowserLauncher)?
        /// Gets each step, secrets redacted.
        public var logger: (any AuthLogger)?
        /// The time expiry is measured and the refresh timer sleeps on.
        public var clock: TurnkeyClock
        /// The hosted origin page Google and Apple start on (nil: Turnkey's).
        public var oauthOriginUrl: String?
        /// Discord's and X's authorize pages where they are not the providers' own.
        public var authorizeUrls: [TurnkeyProvider: String]

        /// The services; the clock defaults to the system's.
        public init(
            transport: any HTTPTransport, stores: TurnkeyStores, crypto: any CryptoProvider,
            browser: (any BrowserLauncher)? = nil, logger: (any AuthLogger)? = nil, clock: TurnkeyClock = .system,
            oauthOriginUrl: String? = nil, authorizeUrls: [TurnkeyProvider: String] = [:]
        ) {
            self.transport = transport
            self.stores = stores
            self.crypto = crypto
            self.browser = browser
            self.logger = logger
            self.clock = clock
            self.oauthOriginUrl = oauthOriginUrl
            self.authorizeUrls = authorizeUrls
        }
    }

    /// A configuration refused for a reason that names no field.
    static let refusedConfiguration = TurnkeyAuthError.invalidConfiguration(
        field: "config", problem: TurnkeyConfiguration.URLProblem.malformed.rawValue)

    /// The SDK fires the expiry timer this long before `exp`.
    public static let expiryBuffer: TimeInterval = 5
    /// The shortest `refreshedSessionTTLSeconds` `storeSession` accepts, as the SDK.
    public static let minimumRefreshTTLSeconds = 30

    /// The configuration as given.
    public let config: TurnkeyConfig
    /// The core every call goes through; nil when the configuration was refused (`configurationError`).
    public let auth: TurnkeyAuth?
    /// Why the configuration was refused: every call throws it.
    public let configurationError: TurnkeyAuthError?
    let clock: TurnkeyClock
    let logger: (any AuthLogger)?

    struct State: Sendable {
        var authState = AuthState.loading
        var selectedSessionKey: String?
        var session: TurnkeySession?
        var user: TurnkeyUser?
        var wallets: [Wallet] = []
    }

    let state = Mutex(State())
    let changeHandler = Mutex<(@Sendable (TurnkeyContext) -> Void)?>(nil)
    /// The timer of each session: it refreshes or clears the session just before `exp`.
    let expiryTasks = Mutex<[String: Task<Void, Never>]>([:])
    /// The lifetime each session is refreshed with (`storeSession`'s TTL, or `exp − now` at sign-in).
    let refreshLifetimes = Mutex<[String: String]>([:])
    private let restoring = Mutex<Task<Void, Never>?>(nil)

    /// A context of its own (most apps use `configure` and `shared`). Reads the stored sessions in
    /// the background: `authState` is `.loading` until then (`waitUntilReady()`).
    public init(config: TurnkeyConfig, services: Services) {
        self.config = config
        self.clock = services.clock
        self.logger = services.logger
        do {
            auth = try TurnkeyAuth(
                configuration: config.configuration(oauthOriginUrl: services.oauthOriginUrl, authorizeUrls: services.authorizeUrls),
                transport: services.transport, stores: services.stores, crypto: services.crypto, browser: services.browser,
                logger: services.logger, clock: services.clock)
            configurationError = nil
        } catch {
            auth = nil
            configurationError = error as? TurnkeyAuthError ?? Self.refusedConfiguration
        }
        let task = Task { [weak self] () -> Void in await self?.restoreSessions() }
        restoring.withLock { $0 = task }
    }

    deinit {
        for task in expiryTasks.withLock({ Array($0.values) }) { task.cancel() }
    }

    // MARK: configure and shared

    private static let pending = Mutex<(TurnkeyConfig, Services)?>(nil)
    private static let instance = Mutex<TurnkeyContext?>(nil)

    /// Keeps the configuration and services `shared` is made from, as the SDK's `configure`. Call it
    /// once, before the first use of `shared`; a later call does not change an existing `shared`.
    public static func configure(_ config: TurnkeyConfig, services: Services) {
        pending.withLock { $0 = (config, services) }
    }

    /// The context `configure` set up, made on first use. Using it before `configure` is a
    /// programming error and stops the program, as in the SDK.
    public static var shared: TurnkeyContext {
        instance.withLock { existing in
            if let existing { return existing }
            guard let (config, services) = pending.withLock({ $0 }) else {
                fatalError("TurnkeyContext.configure() must be called before accessing .shared")
            }
            let made = TurnkeyContext(config: config, services: services)
            existing = made
            return made
        }
    }

    // MARK: State

    /// Whether a session is active.
    public var authState: AuthState { state.withLock { $0.authState } }
    /// The session key of the active session.
    public var selectedSessionKey: String? { state.withLock { $0.selectedSessionKey } }
    /// The active session.
    public var session: TurnkeySession? { state.withLock { $0.session } }
    /// The active session's user (`get_user`), once fetched.
    public var user: TurnkeyUser? { state.withLock { $0.user } }
    /// The active session's wallets with their accounts (`list_wallets`, `list_wallet_accounts`).
    public var wallets: [Wallet] { state.withLock { $0.wallets } }

    /// Called after the state above changes, with this context.
    public var onStateChange: (@Sendable (TurnkeyContext) -> Void)? {
        get { changeHandler.withLock { $0 } }
        set { changeHandler.withLock { $0 = newValue } }
    }

    /// Returns once the stored sessions have been read at start-up (`authState` is no longer `.loading`).
    public func waitUntilReady() async {
        await restoring.withLock { $0 }?.value
    }

    /// Whether a session is refreshed just before it expires (`TurnkeyConfig.Auth.autoRefreshSession`, default on).
    var autoRefreshSession: Bool { config.auth?.autoRefreshSession ?? true }

    func update(_ change: (inout State) -> Void) {
        state.withLock { change(&$0) }
        changeHandler.withLock { $0 }?(self)
    }

    /// The core, once start-up has finished; the configuration's error when it was refused.
    func core() async throws -> TurnkeyAuth {
        await waitUntilReady()
        guard let auth else { throw configurationError ?? Self.refusedConfiguration }
        return auth
    }

    func log(_ message: String) {
        logger?.log(SecretRedaction.redact(message))
    }

    /// Start-up, as the SDK's: expired sessions and hour-old pending sign-ins go, each live session
    /// gets its expiry timer, and the default session (else the first) becomes active.
    private func restoreSessions() async {
        guard let auth else {
            update { $0.authState = .unAuthenticated }
            return
        }
        do {
            try await auth.purgeExpired()
            let sessions = try await auth.sessions()
            for session in sessions { scheduleExpiry(of: session) }
            let chosen = sessions.first { $0.sessionKey == auth.configuration.defaultSessionKey } ?? sessions.first
            guard let chosen else {
                update { $0.authState = .unAuthenticated }
                return
            }
            update {
                $0.authState = .authenticated
                $0.selectedSessionKey = chosen.sessionKey
                $0.session = chosen
            }
            await refreshManagedState(auth)
        } catch {
            log("could not restore the stored sessions: \(error)")
            update { $0.authState = .unAuthenticated }
        }
    }
}
