import Foundation
import SignInFlow

/// An `AccountService` the tests script: what each URI is, what each call answers, and gates that
/// hold a call until the test lets it go (to make races happen on purpose). It records every call.
/// It is the flow's `AccountDesktop` too (keyring, scheme handler, words), so one list of calls
/// shows everything the flow did.
@MainActor
final class FakeAccountService: EmailLinkSignIn, TwoFactorSignIn, AccountDesktop {
    /// What a URI is to the scripted backend, as its parse would find it.
    enum Scripted {
        case notOurs
        /// An `error=` redirect; `solicited` when the running browser sign-in waits for it.
        case failure(solicited: Bool)
        case signIn(SignInMethod, RedirectStanding)
        case refused(SignInMethod?)
    }

    /// The scripted backend's parse, carrying the URI so `complete` can record it.
    struct Parsed: OfferedRedirect {
        let standing: RedirectStanding
        let isTaken = false
        let uri: String
    }

    struct Closed: Error {}
    struct Refused: Error {}
    struct WrongCode: Error {}
    struct LockedKeyring: Error {}
    struct CancelledAtProvider: Error {}

    var backend = Backend.portal
    var providerList: [SignInProvider] = [.google, .apple]
    var offersEmailLinks = true
    var keepsSeveralAccounts = false
    var restoreResult: Result<[SignedInAccount], any Error> = .success([])
    var classifications: [String: Scripted] = [:]
    var completeResults: [String: Result<SignInOutcome, any Error>] = [:]
    var verifyResult: Result<SignedInAccount, any Error> = .success(FakeAccountService.alice)
    var foreignHandler: String?
    var holdSignOut = false
    var holdComplete = false

    private(set) var calls: [String] = []
    private var signInWaiter: CheckedContinuation<SignInOutcome, any Error>?
    private var signOutWaiter: CheckedContinuation<Void, Never>?
    private var completeWaiter: CheckedContinuation<Void, Never>?

    static let alice = SignedInAccount(id: "eu-alice", title: "eu-alice", details: [.endUser("eu-alice"), .client("cl-alice")])
    static let bob = SignedInAccount(id: "eu-bob", title: "eu-bob", details: [.endUser("eu-bob"), .client("cl-bob")])

    var onAccountChange: (@MainActor (AccountChange) -> Void)?
    /// The app anchors its services to the window; the flow never does, so nothing to record.
    func setPresentationAnchor(_ anchor: any PresentationAnchor) {}
    var authorizeURL: URL? { signInWaiter == nil ? nil : URL(string: "https://accounts.example/authorize?state=s") }
    /// The provider of the running sign-in, until its redirect was taken.
    private var awaiting: SignInProvider?

    /// How often the flow asked which sign-ins the backend offers (a request, so not in `calls`).
    private(set) var choicesAsked = 0

    func signInChoices() async -> SignInChoices {
        choicesAsked += 1
        return SignInChoices(providers: providerList, emailLinks: offersEmailLinks)
    }

    /// Holds the flow in `firstFrameDrawn` until `drawFirstFrame()`, as a window not drawn yet does.
    var holdFirstFrame = false
    private var firstFrameWaiters: [CheckedContinuation<Void, Never>] = []

    func firstFrameDrawn() async {
        guard holdFirstFrame else { return }
        await withCheckedContinuation { firstFrameWaiters.append($0) }
    }

    func drawFirstFrame() {
        holdFirstFrame = false
        let waiters = firstFrameWaiters
        firstFrameWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    var profileResult: Result<AccountProfile, any Error> = .success(AccountProfile())
    /// The accounts whose profile was fetched, in order (apart from `calls`: no sign-in step).
    private(set) var profilesFetched: [String] = []

    func profile(of account: SignedInAccount) async throws -> AccountProfile {
        profilesFetched.append(account.id)
        return try profileResult.get()
    }

    func restore() async throws -> [SignedInAccount] {
        calls.append("restore")
        return try restoreResult.get()
    }

    func signIn(with provider: SignInProvider) async throws -> SignInOutcome {
        calls.append("signIn(\(provider))")
        awaiting = provider
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { signInWaiter = $0 }
        } onCancel: {
            Task { @MainActor in self.answerSignIn(.failure(Closed())) }
        }
    }

    /// Ends the running `signIn(with:)` as the core would once the redirect was exchanged.
    func answerSignIn(_ result: Result<SignInOutcome, any Error>) {
        let waiter = signInWaiter
        signInWaiter = nil
        awaiting = nil
        waiter?.resume(with: result)
    }

    var isSignInRunning: Bool { signInWaiter != nil }

    func openInBrowser(_ url: URL) async throws { calls.append("openAgain") }
    func cancelSignIn() {
        calls.append("cancelSignIn")
        awaiting = nil
    }

    /// What sending a link answers, and the wait a refusal names (the rate limit).
    var sendResult: Result<Void, any Error> = .success(())
    var retryAfterSeconds: Double?

    func sendMagicLink(to email: String) async throws {
        calls.append("sendMagicLink(\(email))")
        try sendResult.get()
    }

    func retryAfter(_ error: any Error) -> Double? { retryAfterSeconds }

    /// As a backend does: the running sign-in takes its own redirect (recorded as `deliver`), once.
    func offer(_ uri: String) -> RedirectVerdict {
        switch classifications[uri] ?? .notOurs {
        case .notOurs:
            return .notMine
        case .failure(let solicited):
            guard solicited, awaiting != nil else { return .ignore }
            return take(uri)
        case .refused(let method):
            return .refuse(method)
        case .signIn(let method, let standing):
            if standing == .awaited, let provider = awaiting, method == .provider(provider) { return take(uri) }
            let redirect = HeldRedirect(method: method, standing: standing, parsed: Parsed(standing: standing, uri: uri), uri: uri)
            return standing == .awaited || standing == .repeated ? .exchange(redirect) : .ask(redirect)
        }
    }

    private func take(_ uri: String) -> RedirectVerdict {
        calls.append("deliver(\(uri))")
        awaiting = nil
        return .taken
    }

    func complete(_ redirect: HeldRedirect) async throws -> SignInOutcome {
        let uri = (redirect.parsed as? Parsed)?.uri ?? ""
        calls.append("complete(\(uri))")
        if holdComplete { await withCheckedContinuation { completeWaiter = $0 } }
        return try (completeResults[uri] ?? .failure(Refused())).get()
    }

    func releaseComplete() {
        holdComplete = false
        completeWaiter?.resume()
        completeWaiter = nil
    }

    func verify(code: String, for challenge: CodeChallenge) async throws -> SignedInAccount {
        calls.append("verify(\(code))")
        return try verifyResult.get()
    }

    func checkSession(_ account: SignedInAccount) async throws { calls.append("checkSession(\(account.id))") }

    func signOut(_ account: SignedInAccount) async throws {
        calls.append("signOut(\(account.id))")
        if holdSignOut { await withCheckedContinuation { signOutWaiter = $0 } }
    }

    func releaseSignOut() {
        holdSignOut = false
        signOutWaiter?.resume()
        signOutWaiter = nil
    }

    func foreignSchemeHandler() -> String? { foreignHandler }

    func claimSchemeHandler() throws {
        calls.append("claimSchemeHandler")
        foreignHandler = nil
    }

    /// Whether a keyring service runs; `keyringAppears()` starts one and tells the watcher, as the
    /// bus name appearing does.
    var hasKeyring = true
    private var keyringChanged: (@MainActor @Sendable () -> Void)?

    /// How often the flow asked for the keyring (not in `calls`, which lists what reached the backend).
    private(set) var keyringChecks = 0

    func keyringAvailable() async -> Bool {
        keyringChecks += 1
        return hasKeyring
    }

    func watchKeyring(_ changed: @escaping @MainActor @Sendable () -> Void) { keyringChanged = changed }

    func keyringAppears() {
        hasKeyring = true
        keyringChanged?()
    }

    func describe(_ error: any Error, backend: Backend) -> UserFacingError {
        switch error {
        case is KeyringUnavailableError: return UserFacingError(message: "no keyring", nextStep: .tryAgain, kind: .keyringMissing)
        case is LockedKeyring: return UserFacingError(message: "keyring locked", nextStep: .tryAgain, kind: .keyringLocked)
        case is CancelledAtProvider:
            return UserFacingError(message: "cancelled at the provider", nextStep: .tryAgain, kind: .cancelledAtProvider)
        case is Closed: return UserFacingError(message: "", nextStep: .dismiss, kind: .cancelled)
        case is WrongCode: return UserFacingError(message: "wrong code", nextStep: .dismiss, kind: .wrongCode)
        case is SessionEndedError: return UserFacingError(message: "session ended", nextStep: .signInAgain, kind: .sessionEnded)
        case is RefusedSignInLinkError: return UserFacingError(message: "refused link", nextStep: .dismiss)
        default: return UserFacingError(message: "refused", nextStep: .tryAgain)
        }
    }
}

/// Waits (bounded) for the flow's tasks to get somewhere.
@MainActor
func until(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<2000 {
        if condition() { return true }
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}
