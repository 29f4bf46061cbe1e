import FoundationEssentials

/// What the sign-in window asks of a backend (Portal or Turnkey). An implementation turns
/// its core's errors into `UserFacingError`s; the flow and the window never see HTTP, the keyring,
/// a grant or a token.
@MainActor
public protocol AccountService: AnyObject {
    /// Which platform this service signs in to.
    var backend: Backend { get }
    /// The providers this backend enables, in the order the sign-in page shows them.
    func providers() async -> [SignInProvider]
    /// Whether email links are offered (Portal's magic links).
    var offersEmailLinks: Bool { get }
    /// Whether several accounts can be signed in at once (Turnkey's session keys): a new sign-in then
    /// adds an account instead of replacing the one signed in.
    var keepsSeveralAccounts: Bool { get }
    /// The stored sessions, checked with the backend; empty when there are none (or all were rejected).
    func restore() async throws -> [SignedInAccount]
    /// Opens the provider in the browser and waits for the redirect `deliverToWaitingSignIn` hands it.
    func signIn(with provider: SignInProvider) async throws -> SignInOutcome
    /// The authorize URL of the running browser sign-in ("Copy Link").
    var currentAuthorizeURL: URL? { get }
    /// Opens the running sign-in's page in the browser again.
    func openAuthorizeURLAgain() async throws
    /// Ends the pending sign-in (Cancel, Escape, the window closed): a later redirect is unsolicited.
    func cancelSignIn()
    func sendMagicLink(to email: String) async throws
    /// What a URI from the desktop or the paste field is, before anything is sent.
    func classify(_ uri: String) -> IncomingURI
    /// Hands a redirect to the running `signIn(with:)`.
    func deliverToWaitingSignIn(_ uri: String)
    /// Exchanges a redirect that is not the running sign-in's (an email link, a confirmed one).
    func complete(_ uri: String) async throws -> SignInOutcome
    func verify(code: String, for challenge: CodeChallenge) async throws -> SignedInAccount
    /// Checks a session with the backend (a rejection fires `onSessionInvalidated`).
    func checkSession(_ account: SignedInAccount) async throws
    /// Signs out of one account: its session (and key) leave the keyring.
    func signOut(_ account: SignedInAccount) async throws
    /// Called once when the backend rejects (or ends) a signed-in session, with its account's `id`.
    var onSessionInvalidated: (@MainActor (String) -> Void)? { get set }
    /// Called when a session changed while the app runs (refreshed: a new expiry).
    var onAccountUpdated: (@MainActor (SignedInAccount) -> Void)? { get set }
    /// The name of another app that handles the redirect scheme instead of this one, if any.
    func foreignSchemeHandler() -> String?
    /// Makes this app the scheme's default handler again.
    func claimSchemeHandler() throws
    /// The error in the user's words, with the next step the banner offers.
    func describe(_ error: any Error) -> UserFacingError
    /// Whether a keyring (a Secret Service) is there to keep a session in. Asked before anything
    /// that would spend a grant: without one, a session would be made that nobody holds.
    func keyringAvailable() async -> Bool
    /// Calls `changed` whenever a keyring service may have come or gone (and once at the start).
    func watchKeyring(_ changed: @escaping @MainActor @Sendable () -> Void)
}

/// What a redirect finishes: a provider sign-in or an email link.
public enum SignInMethod: Sendable, Equatable {
    case provider(SignInProvider)
    case emailLink(email: String?)
}

/// A URI as the backend sees it, before anything is sent.
public enum IncomingURI: Sendable, Equatable {
    /// Not a redirect for this app (another app's link, a pasted mistake).
    case notOurs
    /// A redirect reporting a failed sign-in; `solicited` when a provider sign-in of this app waits.
    case failure(solicited: Bool)
    /// A redirect that can sign in, and whether this app asked for it.
    case signIn(SignInMethod, Solicitation)
    /// A redirect for this app that can never finish here (its `state` is not one this app issued):
    /// refused, nothing sent.
    case refused(SignInMethod?)
}

public enum Solicitation: Sendable, Equatable {
    /// Nothing this app started (or it was cancelled, or it expired): ask before exchanging.
    case unsolicited
    /// A sign-in this app started and is waiting for.
    case started
    /// A sign-in this app started before it quit, crashed or was killed: no running app waits for
    /// it, and anyone may have finished it since, so the person is asked (and told why).
    case startedBeforeRestart
    /// The redirect of a sign-in that just finished, delivered again: it replays, nothing is sent.
    case repeated
}

/// The session the banner reports as ended (the service words it).
public struct SessionEndedError: Error, Sendable {
    public init() {}
}

/// No keyring service is running, so sign-in waits for one (the service words the advice).
public struct KeyringUnavailableError: Error, Sendable {
    public init() {}
}

/// A sign-in link the banner reports as refused: this app did not start it (the service words it).
public struct RefusedSignInLinkError: Error, Sendable {
    public let method: SignInMethod?
    public init(method: SignInMethod?) { self.method = method }
}

/// A signed-in account, as the "Signed in" page shows it.
public struct SignedInAccount: Sendable, Equatable {
    /// Stable for one stored session (Turnkey's session key; Portal's end user).
    public let id: String
    /// How the account list names it (a user name, an email, an ID).
    public let title: String
    /// The facts the page lists, in order.
    public let details: [AccountDetail]

    public init(id: String, title: String, details: [AccountDetail]) {
        self.id = id
        self.title = title
        self.details = details
    }

    /// The provider the account signs in with, when the backend says.
    public var provider: SignInProvider? {
        for case .provider(let provider) in details { return provider }
        return nil
    }
}

/// One line of the "Signed in" page; the window words the heading.
public enum AccountDetail: Sendable, Equatable {
    case endUser(String)
    case client(String?)
    case accountAbstraction(Bool?)
    case organization(String)
    case user(String)
    case provider(SignInProvider)
    case sessionExpires(Date)
}

/// A sign-in that needs a two-factor code. The user JWT stays inside the service.
public struct CodeChallenge: Sendable, Equatable {
    public let id: UUID
    /// The otpauth:// link, only on first enrolment.
    public let totpLink: String?
    /// The base32 secret from that link, to type into an authenticator by hand.
    public let totpSecret: String?

    public init(id: UUID = UUID(), totpLink: String?, totpSecret: String?) {
        self.id = id
        self.totpLink = totpLink
        self.totpSecret = totpSecret
    }
}

public enum SignInOutcome: Sendable, Equatable {
    case signedIn(SignedInAccount)
    case needsCode(CodeChallenge)
}

/// An error in words for the banner, with the action its button offers.
public struct UserFacingError: Error, Sendable, Equatable {
    public enum NextStep: Sendable { case tryAgain, signInAgain, dismiss }
    public enum Kind: Sendable { case general, cancelled, wrongCode, tooManyCodes, sessionEnded }

    public let message: String
    public let nextStep: NextStep
    public let kind: Kind

    public init(message: String, nextStep: NextStep, kind: Kind = .general) {
        self.message = message
        self.nextStep = nextStep
        self.kind = kind
    }
}
