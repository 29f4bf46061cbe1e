import AuthBase
import AuthTestSupport
import Foundation
import SignInAccounts
import SignInFlow
import Testing
import TurnkeyAuth

/// A `TurnkeyAccountService` on a `TurnkeyAuth` wired to the in-memory fakes, both on one test clock.
@MainActor
struct TurnkeyFixture {
    static let appRedirect = "io.github.portalauth.signin://"
    static let getUser = #"{"user":{"userId":"user-1","userName":"alice","oauthProviders":[{"providerName":"discord"}]}}"#

    let transport = ScriptedTransport()
    let sessions: InMemoryTurnkeySessionStore
    let keys: InMemoryKeyStore
    let pending: InMemoryTurnkeyPendingSignInStore
    let crypto = FakeCrypto()
    let browser = FakeBrowser()
    let clock = TestClock()
    let auth: TurnkeyAuth
    let service: TurnkeyAccountService

    /// `sharing`: another fixture whose stores (the keyring) this one uses: the app after a restart.
    init(sharing other: TurnkeyFixture? = nil, policy: RefreshPolicy = RefreshPolicy()) throws {
        sessions = other?.sessions ?? InMemoryTurnkeySessionStore()
        // The signed-in page lists the account's wallets: none, unless a test says otherwise.
        transport.always("/query/list_wallets", #"{"wallets":[]}"#)
        keys = other?.keys ?? InMemoryKeyStore()
        pending = other?.pending ?? InMemoryTurnkeyPendingSignInStore()
        let configuration = TurnkeyConfiguration(
            authProxyUrl: "http://127.0.0.1:8790/turnkey/auth-proxy", authProxyConfigId: "local-dev",
            apiUrl: "http://127.0.0.1:8790/turnkey/api", oauthOriginUrl: "http://127.0.0.1:8790/turnkey/oauth-origin",
            authorizeUrls: [.discord: "http://127.0.0.1:8790/idp/discord/authorize", .x: "http://127.0.0.1:8790/idp/x/authorize"])
        auth = try TurnkeyAuth(
            configuration: configuration, transport: transport,
            stores: TurnkeyStores(sessions: sessions, keys: keys, pending: pending), crypto: crypto,
            browser: browser, clock: clock.turnkey)
        service = TurnkeyAccountService(
            core: .success(auth), refreshPolicy: policy,
            clock: clock.turnkey)
    }

    static func codeCallback(state: String) -> String { "\(appRedirect)?code=\(Secrets.providerCode)&state=\(state)" }

    /// Turnkey's answers to a Discord login (code exchange, account, oauth_login) for the key the
    /// requests name, a session that lasts `lifetime` seconds, then whoami and get_user.
    func replyDiscordLogin(walletKit: Bool = true, lifetime: TimeInterval = 900) {
        if walletKit { transport.reply(TK.walletKit()) }
        transport.enqueue(.answer { request in (200, TK.oauth2(TK.oidcToken(nonce: request.jsonBody["nonce"] as? String))) })
        transport.reply(TK.account("sub-org-1"))
        let expiry = clock.now.addingTimeInterval(lifetime)
        transport.enqueue(
            .answer { request in
                (200, TK.session(TK.sessionJwt(publicKey: request.jsonBody["publicKey"] as? String ?? "", expiresAt: expiry)))
            })
        replyFacts()
    }

    func replyFacts() {
        transport.reply(TK.whoami)
        transport.reply(Self.getUser)
    }

    /// Starts a Discord sign-in and waits until the browser opened; returns its task and callback.
    func startDiscordSignIn() async throws -> (task: Task<SignInOutcome, any Error>, callback: String) {
        let service = self.service
        let opened = browser.openedURLs.count
        let task = Task { try await service.signIn(with: .discord) }
        #expect(await settled { browser.openedURLs.count > opened })
        let url = try #require(browser.openedURLs.last)
        let state = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?.value)
        return (task, Self.codeCallback(state: state))
    }

    /// A whole Discord sign-in through the service, as the flow drives it.
    @discardableResult
    func signInWithDiscord(walletKit: Bool = true, lifetime: TimeInterval = 900) async throws -> SignedInAccount {
        replyDiscordLogin(walletKit: walletKit, lifetime: lifetime)
        let (task, callback) = try await startDiscordSignIn()
        _ = service.offer(callback)
        guard case .signedIn(let account) = try await task.value else { throw Unexpected() }
        return account
    }

    /// A session already in the keyring under `sessionKey`, with its key: what a restart finds.
    func storeSession(_ sessionKey: String, expiresIn lifetime: TimeInterval = 900) throws {
        let pair = try crypto.generateP256()
        keys.items.put(pair.publicKeyHex, Hex.encode(pair.privateKey))
        sessions.items.put(
            "local-dev/\(sessionKey)",
            TK.sessionJwt(
                publicKey: pair.publicKeyHex,
                expiresAt: clock.now.addingTimeInterval(lifetime)))
    }

    /// Whether `count` refreshes wait on the clock (a scheduled refresh starts sleeping on its own task).
    func refreshesWaiting(_ count: Int = 1) async -> Bool { await settled { clock.sleeping == count } }

    /// The requests sent to paths ending in `suffix`.
    func sent(_ suffix: String) -> [HTTPRequest] { transport.requests.filter { $0.url.path.hasSuffix(suffix) } }

    struct Unexpected: Error {}
}
