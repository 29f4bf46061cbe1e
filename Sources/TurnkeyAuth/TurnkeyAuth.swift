import FoundationEssentials
import Synchronization

/// Turnkey's social logins for one Auth Proxy config: the Linux counterpart of the SDK's
/// `TurnkeyContext` OAuth surface (Google, Apple, Discord, X; `completeOAuth`; sessions under
/// session keys; refresh; stamped requests). It reaches the world only through the injected
/// transport, stores, crypto and browser, and does no I/O while being created.
///
/// Stricter than the SDK: every sign-in carries an unguessable `state` (Google and Apple too) that a
/// callback must match; an `id_token`'s nonce is checked against the key before anything is sent;
/// keys, pending sign-ins and sessions live in the injected stores (the keyring), never in files.
///
/// Hold one long-lived instance: it remembers the callbacks it finished, so a callback delivered
/// twice replays instead of spending a Discord or X code twice.
public final class TurnkeyAuth: Sendable {
    /// The configuration this instance was made with, as given.
    public let configuration: TurnkeyConfiguration

    let config: ValidatedConfiguration
    let authProxy: AuthProxyAPI
    let api: TurnkeyAPI
    let stores: TurnkeyStores
    let crypto: any CryptoProvider
    let browser: (any BrowserLauncher)?
    let logger: (any AuthLogger)?
    let clock: TurnkeyClock

    /// Serialises everything that reads or writes the stores or the replay memory, in arrival order.
    let mutex = AsyncMutex()
    let replay = ReplayMemory()
    let walletKit = Mutex<TurnkeyWire.WalletKitConfig?>(nil)
    /// The browser sign-in `handle*OAuth` runs, which the app hands the desktop's URLs, and the
    /// session key it would store under.
    let browserSignIns = BrowserSignInSlot<TurnkeyIncomingCallback>()
    /// The running browser sign-in's `state` (the callback it takes) and the session key it stores under.
    let browserSignInRunning = Mutex<(state: String, sessionKey: String)?>(nil)
    /// The pending sign-ins this instance knows, by state: those its `loginURL` issued (the running
    /// process started them; memory only, so that ends with the process however it ends) and those
    /// `pendingSignIns()` found that an earlier process left in the store.
    let knownSignIns = Mutex<[String: KnownSignIn]>([:])

    struct KnownSignIn {
        let provider: TurnkeyProvider
        let isStartedHere: Bool
    }

    /// An instance for `configuration`'s Auth Proxy config, keeping keys, pending sign-ins and
    /// sessions in `stores`; give it a `browser` for the `handle*OAuth` browser sign-ins.
    ///
    /// - Throws: `TurnkeyAuthError.invalidConfiguration(field:problem:)` naming the first field that
    ///   is blank or not valid (URLs must be `https`, or `http` to loopback).
    public init(
        configuration: TurnkeyConfiguration, transport: any HTTPTransport, stores: TurnkeyStores,
        crypto: any CryptoProvider, browser: (any BrowserLauncher)? = nil, logger: (any AuthLogger)? = nil,
        clock: TurnkeyClock = .system
    ) throws {
        let config = try configuration.validated()
        self.configuration = configuration
        self.config = config
        self.authProxy = AuthProxyAPI(
            http: TurnkeyHTTP(baseURL: config.authProxyUrl, transport: transport),
            configId: config.authProxyConfigId)
        self.api = TurnkeyAPI(http: TurnkeyHTTP(baseURL: config.apiUrl, transport: transport), stamper: Stamper(crypto: crypto))
        self.stores = stores
        self.crypto = crypto
        self.browser = browser
        self.logger = logger
        self.clock = clock
    }

    /// The Auth Proxy config every call uses, trimmed; stores keep their items under it.
    public var authProxyConfigId: String { config.authProxyConfigId }

    // MARK: wallet_kit_config

    /// The enabled providers and the parent organization: the configuration's, else the Auth
    /// Proxy's `wallet_kit_config` (asked only when the configuration leaves something out).
    public func providers() async throws -> TurnkeyProviders {
        if let enabled = config.enabledProviders, let organizationId = config.organizationId {
            return TurnkeyProviders(enabledProviders: enabled, organizationId: organizationId)
        }
        let kit = try await walletKitConfig()
        return TurnkeyProviders(
            enabledProviders: config.enabledProviders ?? Self.providers(named: kit.enabledProviders ?? []),
            organizationId: config.organizationId ?? kit.organizationId?.nonBlank)
    }

    /// Fetched once per instance; a failure is not remembered.
    func walletKitConfig() async throws -> TurnkeyWire.WalletKitConfig {
        if let cached = walletKit.withLock({ $0 }) { return cached }
        let fetched = try await authProxy.walletKitConfig()
        walletKit.withLock { $0 = fetched }
        return fetched
    }

    /// Unknown provider names are skipped, duplicates kept once.
    static func providers(named names: [String]) -> [TurnkeyProvider] {
        var result: [TurnkeyProvider] = []
        for name in names {
            if let provider = TurnkeyProvider(providerName: name.lowercased()), !result.contains(provider) { result.append(provider) }
        }
        return result
    }

    /// The session lifetime a refresh asks for: the configuration's, else `wallet_kit_config`'s
    /// (a failure to fetch it is ignored, as the SDK does), else 900 seconds.
    func sessionExpirationSeconds() async -> String {
        if let configured = config.sessionExpirationSeconds { return configured }
        if let fetched = try? await walletKitConfig().sessionExpirationSeconds?.nonBlank,
            let seconds = Int(fetched), seconds > 0
        {
            return fetched
        }
        return TurnkeyConfiguration.defaultSessionExpirationSeconds
    }

    // MARK: Helpers

    /// The session key a call means: the one given (trimmed), else the configuration's default.
    func resolvedSessionKey(_ sessionKey: String?) throws -> String {
        guard let sessionKey else { return config.defaultSessionKey }
        guard let trimmed = sessionKey.nonBlank else { throw TurnkeyAuthError.invalidArgument(name: "sessionKey") }
        return trimmed
    }

    func log(_ message: String) {
        logger?.log(SecretRedaction.redact(message))
    }
}
