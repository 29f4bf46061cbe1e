import FoundationEssentials
import PortalAuth
import SignInFlow

/// The Portal backend of the sign-in window: a thin adapter from `PortalAuth` to the flow. The core
/// runs the browser sign-in; the flow offers it each redirect (with a loopback redirect URL the core's
/// listener on 127.0.0.1 receives it itself). The core is injected: the app's is made with
/// PortalAuthGNOME's pieces, the tests' with in-memory fakes.
@MainActor
public final class PortalAccountService: EmailLinkSignIn, TwoFactorSignIn {
    /// A failure when the configuration was rejected; every call then reports it.
    private let core: Result<PortalAuth, any Error>

    private var client: PortalClient?
    private var invalidation: InvalidationSubscription?
    private var challenges: [UUID: TotpRequiredResult] = [:]
    /// What clients/me said at restore: the page's profile is made from it without asking again.
    private var restoredClient: ClientInfo?

    /// Portal sessions do not change while the app runs: only `.ended` is reported.
    public var onAccountChange: (@MainActor (AccountChange) -> Void)?
    /// One Portal session per auth environment and session key: a new sign-in replaces it (after asking).
    public let keepsSeveralAccounts = false
    public let backend = Backend.portal

    /// `anchor`: the window the app's sign-ins start from (see `PortalAuth.setAuthPresentationAnchor(_:)`).
    public init(core: Result<PortalAuth, any Error>, anchor: any PresentationAnchor) {
        self.core = core
        guard case .success(let auth) = core else { return }
        // Always offer the provider's account chooser: after signing out, another account is one click away.
        auth.prefersEphemeralWebBrowserSession = true
        auth.setAuthPresentationAnchor(anchor)
    }

    /// Starts the next sign-ins from `anchor`'s window instead.
    public func setPresentationAnchor(_ anchor: any PresentationAnchor) {
        auth?.setAuthPresentationAnchor(anchor)
    }

    private var auth: PortalAuth? { try? core.get() }

    private func portal() throws -> PortalAuth { try core.get() }

    // MARK: - Sign-in

    /// The buttons the environment enables (`getMethods`); all of them when it cannot be asked,
    /// so the person still gets an error that says why when they try.
    public func signInChoices() async -> SignInChoices {
        guard let methods = try? await portal().getMethods().allowedAuthMethods else {
            return SignInChoices(providers: AuthMethod.providers.compactMap(\.provider), emailLinks: true)
        }
        return SignInChoices(
            providers: AuthMethod.providers.filter { methods.contains($0) }.compactMap(\.provider),
            emailLinks: methods.contains(.emailMagicLink))
    }

    public func restore() async throws -> [SignedInAccount] {
        guard let session = try await portal().restoreSession() else { return [] }
        let client = try adopt(session)
        do {
            let info = try await client.getClient()
            restoredClient = info
            return [Self.account(endUserId: session.endUserId, clientId: info.id, isAccountAbstracted: info.isAccountAbstracted)]
        } catch PortalRequestsError.unauthorized {
            // Portal no longer knows this session: forget it, so the next start does not try it again.
            try? await portal().clearPersistedSession()
            dropClient()
            throw SessionEndedError()
        }
    }

    public func signIn(with provider: SignInProvider) async throws -> SignInOutcome {
        let auth = try portal()
        // A provider Portal does not offer (Turnkey's) has no method.
        guard let method = AuthMethod(provider) else { throw PortalAuthSignInError.unavailable }
        return try outcome(of: try await auth.signIn(with: method))
    }

    public var authorizeURL: URL? { auth?.browserSignInPage }

    public func cancelSignIn() {
        auth?.cancelBrowserSignIn()
    }

    public func sendMagicLink(to email: String) async throws {
        try await portal().sendMagicLink(email)
    }

    // MARK: - Redirects

    public func offer(_ uri: String) -> RedirectVerdict {
        guard let incoming = auth?.offer(uri) else { return .notMine }
        if incoming.isTaken { return .taken }
        guard let method = incoming.method, !incoming.isError else { return .ignore }
        let signInMethod: SignInMethod = method.provider.map { .provider($0) } ?? .emailLink(email: incoming.email)
        return .signIn(HeldRedirect(method: signInMethod, standing: incoming.standing, parsed: incoming, uri: uri))
    }

    public func complete(_ redirect: HeldRedirect) async throws -> SignInOutcome {
        guard let incoming = redirect.parsed as? IncomingRedirect else { throw PortalAuthSignInError.callbackIncomplete }
        return try outcome(of: try await portal().handleRedirect(incoming))
    }

    public func verify(code: String, for challenge: CodeChallenge) async throws -> SignedInAccount {
        guard let pending = challenges[challenge.id] else { throw PortalAuthSignInError.callbackIncomplete }
        let result: AuthenticatedResult
        do {
            result = try await portal().verifyTotp(code, userJwt: pending.userJwt)
        } catch PortalRequestsError.unauthorized {
            // Portal keeps the JWT usable: the person types the code again.
            throw TwoFactorCodeError.wrongCode
        } catch PortalAuthError.rateLimited {
            challenges[challenge.id] = nil
            throw TwoFactorCodeError.tooManyCodes
        }
        challenges[challenge.id] = nil
        return try signedIn(result)
    }

    // MARK: - The signed-in page

    public func profile(of account: SignedInAccount) async throws -> AccountProfile {
        guard let client else { throw SessionEndedError() }
        if let info = restoredClient {
            restoredClient = nil // a reload asks Portal again
            return Self.profile(from: info)
        }
        return Self.profile(from: try await client.getClient())
    }

    /// What `GET /api/v3/clients/me` says of the app and the wallets: the custodian's name, the
    /// environment's, and the client's address on each chain it has one (EVM, Solana, then the
    /// others by their namespace); `[]` when the client has no wallet yet.
    static func profile(from info: ClientInfo) -> AccountProfile {
        let namespaces = info.metadata.namespaces
        let chains: [(WalletAddress.Chain, ClientInfo.NamespaceItem?)] = [
            (.evm, namespaces.eip155), (.solana, namespaces.solana), (.other("bip122"), namespaces.bip122),
            (.other("stellar"), namespaces.stellar), (.other("tron"), namespaces.tron)
        ]
        let addresses = chains.compactMap { chain, item in
            item.flatMap { $0.address.isEmpty ? nil : WalletAddress(chain: chain, address: $0.address) }
        }
        return AccountProfile(
            appName: info.custodian.name.isEmpty ? nil : info.custodian.name, environment: info.environment?.name,
            addresses: info.wallets.isEmpty && addresses.isEmpty ? [] : addresses)
    }

    // MARK: - The session

    public func checkSession(_ account: SignedInAccount) async throws {
        guard let client else { return }
        _ = try await client.getClient()
    }

    public func signOut(_ account: SignedInAccount) async throws {
        do { try await portal().clearPersistedSession() } catch { throw SignOutError(underlying: error) }
        client?.clearSession()
        dropClient()
    }

    // MARK: - Results

    private func outcome(of result: AuthResult) throws -> SignInOutcome {
        switch result {
        case .authenticated(let authenticated):
            return .signedIn(try signedIn(authenticated))
        case .totpRequired(let pending):
            let challenge = CodeChallenge(totpLink: pending.totpLink, totpSecret: pending.totpSecret)
            challenges = [challenge.id: pending] // only the newest sign-in's code is wanted
            return .needsCode(challenge)
        }
    }

    private func signedIn(_ result: AuthenticatedResult) throws -> SignedInAccount {
        _ = try adopt(result.session)
        return Self.account(
            endUserId: result.session.endUserId, clientId: result.clientId,
            isAccountAbstracted: result.isAccountAbstracted)
    }

    private static func account(endUserId: String, clientId: String?, isAccountAbstracted: Bool?) -> SignedInAccount {
        SignedInAccount(
            id: endUserId, title: endUserId,
            details: [.endUser(endUserId), .client(clientId), .accountAbstraction(isAccountAbstracted)])
    }

    /// Makes `session` the current one, watched for Portal's 401.
    private func adopt(_ session: PortalSession) throws -> PortalClient {
        dropClient()
        let client = try portal().client(for: session)
        let endUserId = session.endUserId
        invalidation = client.onSessionInvalidated { [weak self] in
            Task { @MainActor in self?.sessionWasInvalidated(endUserId) }
        }
        self.client = client
        return client
    }

    private func dropClient() {
        restoredClient = nil
        invalidation?.cancel()
        invalidation = nil
        client = nil
    }

    private func sessionWasInvalidated(_ endUserId: String) {
        dropClient()
        Task { @MainActor in try? await self.portal().clearPersistedSession() }
        onAccountChange?(.ended(id: endUserId))
    }
}
