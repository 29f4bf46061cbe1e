import Foundation
import SignInFlow

/// An `AccountService` the tests script: what each URI is, what each call answers, and gates that
/// hold a call until the test lets it go (to make races happen on purpose). It records every call.
@MainActor
final class FakeAccountService: AccountService {
    struct Closed: Error {}
    struct Refused: Error {}
    struct WrongCode: Error {}

    var backend = Backend.portal
    var providerList: [SignInProvider] = [.google, .apple]
    var offersEmailLinks = true
    var keepsSeveralAccounts = false
    var restoreResult: Result<[SignedInAccount], any Error> = .success([])
    var classifications: [String: IncomingURI] = [:]
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

    var onSessionInvalidated: (@MainActor (String) -> Void)?
    var onAccountUpdated: (@MainActor (SignedInAccount) -> Void)?
    var currentAuthorizeURL: URL? { signInWaiter == nil ? nil : URL(string: "https://accounts.example/authorize?state=s") }

    func providers() async -> [SignInProvider] { providerList }

    func restore() async throws -> [SignedInAccount] {
        calls.append("restore")
        return try restoreResult.get()
    }

    func signIn(with provider: SignInProvider) async throws -> SignInOutcome {
        calls.append("signIn(\(provider))")
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
        waiter?.resume(with: result)
    }

    var isSignInRunning: Bool { signInWaiter != nil }

    func openAuthorizeURLAgain() async throws { calls.append("openAgain") }
    func cancelSignIn() { calls.append("cancelSignIn") }

    func sendMagicLink(to email: String) async throws { calls.append("sendMagicLink(\(email))") }

    func classify(_ uri: String) -> IncomingURI { classifications[uri] ?? .notOurs }

    func deliverToWaitingSignIn(_ uri: String) { calls.append("deliver(\(uri))") }

    func complete(_ uri: String) async throws -> SignInOutcome {
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

    func describe(_ error: any Error) -> UserFacingError {
        switch error {
        case is KeyringUnavailableError: return UserFacingError(message: "no keyring", nextStep: .tryAgain)
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
