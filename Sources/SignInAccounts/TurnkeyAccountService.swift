import FoundationEssentials
import SignInFlow
import TurnkeyAuth

/// The Turnkey backend of the sign-in window: a thin adapter from `TurnkeyAuth` to the flow. The
/// core runs the browser sign-in (`handleOAuth`) and knows every `state` it issued; the flow offers
/// it each redirect. A callback whose state no record here names can never
/// finish (its key and verifier do not exist): it is refused, nothing sent. Several sessions live
/// side by side under session keys (`default`, `default-2`, …); each is refreshed (stamp_login, a
/// new key) before it expires while the app runs.
@MainActor
public final class TurnkeyAccountService: AccountService {
    public let backend = Backend.turnkey
    public let keepsSeveralAccounts = true

    private let refreshPolicy: RefreshPolicy
    /// The time refreshes are scheduled by (the core's own clock in the app; a test clock in tests).
    private let clock: TurnkeyClock
    private let core: Result<TurnkeyAuth, any Error>

    /// The window the app's sign-ins start from (see `TurnkeyAuth.handleOAuth(for:anchor:…)`).
    private var anchor: (any PresentationAnchor)?
    private var refreshTasks: [String: Task<Void, Never>] = [:]
    /// Who each session belongs to, as last fetched: a refresh changes the key, not the person.
    private var facts: [String: AccountFacts] = [:]

    public var onAccountChange: (@MainActor (AccountChange) -> Void)?

    public init(core: Result<TurnkeyAuth, any Error>, refreshPolicy: RefreshPolicy, clock: TurnkeyClock = .system) {
        self.core = core
        self.refreshPolicy = refreshPolicy
        self.clock = clock
    }

    private var auth: TurnkeyAuth? { try? core.get() }

    /// Starts the next sign-ins from `anchor`'s window: the browser gets it as its parent.
    public func setPresentationAnchor(_ anchor: any PresentationAnchor) {
        self.anchor = anchor
    }

    private func turnkey() throws -> TurnkeyAuth { try core.get() }

    // MARK: - Providers and restore

    public func signInChoices() async -> SignInChoices {
        guard let enabled = try? await turnkey().providers().enabledProviders else {
            return SignInChoices(providers: TurnkeyProvider.allCases.map(\.signInProvider))
        }
        return SignInChoices(providers: enabled.map(\.signInProvider).sorted())
    }

    public func restore() async throws -> [SignedInAccount] {
        let auth = try turnkey()
        try await auth.purgeExpired()
        // A sign-in started before a restart can still finish here within its hour, once the person
        // says so: reading the records lets the core name them.
        _ = try await auth.pendingSignIns()
        var accounts: [SignedInAccount] = []
        var ended = 0
        for session in try await auth.sessions() {
            do {
                try await fetchFacts(session)
                accounts.append(signedInAccount(session))
                scheduleRefresh(session)
            } catch  where Self.sessionRefused(error) {
                // Turnkey no longer accepts it (expired there, or revoked): forget it.
                try? await auth.signOut(sessionKey: session.sessionKey)
                ended += 1
            }
        }
        if accounts.isEmpty, ended > 0 { throw SessionEndedError() }
        return accounts
    }

    // MARK: - Sign-in

    public func signIn(with provider: SignInProvider) async throws -> SignInOutcome {
        let auth = try turnkey()
        guard let turnkeyProvider = TurnkeyProvider(provider) else { throw TurnkeySignInError.unavailable }
        let result = try await auth.handleOAuth(for: turnkeyProvider, anchor: anchor, sessionKey: try await freeSessionKey())
        return try await signedIn(result, provider: turnkeyProvider)
    }

    public var authorizeURL: URL? { auth?.browserSignInPage }

    public func cancelSignIn() {
        auth?.cancelBrowserSignIn()
    }

    // MARK: - Redirects

    public func offer(_ uri: String) -> RedirectVerdict {
        guard let incoming = auth?.offer(uri) else { return .notMine }
        if incoming.isTaken { return .taken }
        // No sign-in here names its state: it can never finish here.
        guard let provider = incoming.provider else { return incoming.isError ? .ignore : .refuse(nil) }
        guard !incoming.isError else { return .ignore }
        return .signIn(
            HeldRedirect(method: .provider(provider.signInProvider), standing: incoming.standing, parsed: incoming, uri: uri))
    }

    public func complete(_ redirect: HeldRedirect) async throws -> SignInOutcome {
        let auth = try turnkey()
        guard let incoming = redirect.parsed as? TurnkeyIncomingCallback, let provider = incoming.provider else {
            throw RefusedSignInLinkError(method: nil)
        }
        let result = try await auth.handleRedirect(incoming, sessionKey: try await freeSessionKey())
        return try await signedIn(result, provider: provider)
    }

    // MARK: - Sessions

    public func checkSession(_ account: SignedInAccount) async throws {
        do {
            _ = try await turnkey().whoami(sessionKey: account.id)
        } catch  where Self.sessionRefused(error) {
            await sessionEnded(account.id)
        }
    }

    public func signOut(_ account: SignedInAccount) async throws {
        refreshTasks.removeValue(forKey: account.id)?.cancel()
        do { try await turnkey().signOut(sessionKey: account.id) } catch { throw SignOutError(underlying: error) }
        facts.removeValue(forKey: account.id)
    }

    // MARK: - The signed-in page

    /// The person (name or email), the organization and the provider, from the facts fetched at
    /// sign-in or restore (fetched again when they are missing), and the wallet accounts.
    public func profile(of account: SignedInAccount) async throws -> AccountProfile {
        let auth = try turnkey()
        var known = facts[account.id] ?? AccountFacts()
        if known.whoami == nil { known.whoami = try await auth.whoami(sessionKey: account.id) }
        if known.user == nil { known.user = try await auth.user(sessionKey: account.id) }
        if known.provider == nil { known.provider = known.user?.providers.first }
        facts[account.id] = known
        return AccountProfile(
            person: known.user?.userName ?? known.user?.userEmail ?? known.whoami?.username,
            organization: known.whoami.map { $0.organizationName ?? $0.organizationId },
            provider: known.provider?.signInProvider,
            addresses: try await walletAddresses(sessionKey: account.id))
    }

    /// Every wallet account's address, from `list_wallets` then `list_wallet_accounts` of each
    /// wallet, as Turnkey's SDK fetches them after a sign-in (`ADDRESS_FORMAT_ETHEREUM` → `.evm`,
    /// `ADDRESS_FORMAT_SOLANA` → `.solana`, others by their format); `[]` when there is none.
    private func walletAddresses(sessionKey: String) async throws -> [WalletAddress]? {
        let auth = try core.get()
        return try await auth.wallets(sessionKey: sessionKey).flatMap(\.accounts).map { account in
            switch account.addressFormat {
            case "ADDRESS_FORMAT_ETHEREUM": WalletAddress(chain: .evm, address: account.address)
            case "ADDRESS_FORMAT_SOLANA": WalletAddress(chain: .solana, address: account.address)
            default:
                WalletAddress(
                    chain: .other(String(account.addressFormat.dropFirst("ADDRESS_FORMAT_".count)).lowercased()),
                    address: account.address)
            }
        }
    }

    // MARK: - Plumbing

    /// The signed-in account of a finished sign-in, its refresh scheduled.
    private func signedIn(_ result: TurnkeyRedirectResult, provider: TurnkeyProvider) async throws -> SignInOutcome {
        guard case .authenticated(let completed) = result else {
            throw RefusedSignInLinkError(method: .provider(provider.signInProvider))
        }
        let session = completed.session
        scheduleRefresh(session)
        // Signed in and saved: a failing lookup of names only leaves the page with IDs.
        if (try? await fetchFacts(session, provider: provider)) == nil { facts[session.sessionKey] = AccountFacts(provider: provider) }
        return .signedIn(signedInAccount(session))
    }

    /// A session key no stored session uses: another sign-in adds a session, never replaces one.
    private func freeSessionKey() async throws -> String {
        let auth = try turnkey()
        return SessionKeyNaming.free(base: auth.configuration.defaultSessionKey, taken: Set(try await auth.sessionKeys()))
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
        refresh(session, after: refreshPolicy.delay(until: session.expiresAt, now: clock.now()))
    }

    private func refresh(_ session: TurnkeySession, after seconds: Double) {
        refreshTasks[session.sessionKey]?.cancel()
        let clock = self.clock
        refreshTasks[session.sessionKey] = Task { [weak self] in
            try? await clock.sleep(.seconds(seconds))
            guard !Task.isCancelled else { return }
            await self?.refresh(session)
        }
    }

    private func refresh(_ session: TurnkeySession) async {
        guard let auth else { return }
        do {
            let renewed = try await auth.refreshSession(sessionKey: session.sessionKey)
            scheduleRefresh(renewed)
            onAccountChange?(.updated(signedInAccount(renewed)))
        } catch  where Self.sessionRefused(error) || session.isExpired(at: clock.now()) {
            await sessionEnded(session.sessionKey)
        } catch {
            // The network failed: try again shortly while the session lasts.
            refresh(session, after: RefreshPolicy.retrySeconds)
        }
    }

    private func sessionEnded(_ sessionKey: String) async {
        refreshTasks.removeValue(forKey: sessionKey)?.cancel()
        facts.removeValue(forKey: sessionKey)
        try? await auth?.signOut(sessionKey: sessionKey)
        onAccountChange?(.ended(id: sessionKey))
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
