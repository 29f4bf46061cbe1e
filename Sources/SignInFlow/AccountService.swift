import FoundationEssentials

/// What the sign-in window asks of a backend (Portal or Turnkey): only what differs between them.
/// An implementation keeps its core's errors as they are (the desktop words them); the flow and the
/// window never see HTTP, the keyring, a grant or a token.
@MainActor
public protocol AccountService: AnyObject {
    /// Which platform this service signs in to.
    var backend: Backend { get }
    /// The providers this backend enables, in the order the sign-in page shows them, and whether it
    /// offers email links (then it is also an `EmailLinkSignIn`).
    func signInChoices() async -> SignInChoices
    /// Whether several accounts can be signed in at once (Turnkey's session keys): a new sign-in then
    /// adds an account instead of replacing the one signed in.
    var keepsSeveralAccounts: Bool { get }
    /// The stored sessions, checked with the backend; empty when there are none (or all were rejected).
    func restore() async throws -> [SignedInAccount]
    /// Opens the provider in the browser and waits for the redirect `offer` hands it.
    func signIn(with provider: SignInProvider) async throws -> SignInOutcome
    /// The page the running browser sign-in opened ("Copy Link", "Open Again"); its session's.
    var authorizeURL: URL? { get }
    /// Ends the pending sign-in (Cancel, Escape, the window closed): a later redirect is unsolicited.
    func cancelSignIn()
    /// The one call for a URI from the desktop or the paste field: parsed once, an awaited browser
    /// sign-in resumed with it, and what the window must do with it returned. Nothing is sent.
    func offer(_ uri: String) -> RedirectVerdict
    /// Exchanges a redirect `offer` returned as `.exchange` or `.ask` (once asked).
    func complete(_ redirect: HeldRedirect) async throws -> SignInOutcome
    /// Who the account is, what it signed in to and its wallet addresses, fetched from the backend
    /// (after sign-in and restore). A failure leaves the session as it is.
    func profile(of account: SignedInAccount) async throws -> AccountProfile
    /// Checks a session with the backend (a rejection reports `.ended`).
    func checkSession(_ account: SignedInAccount) async throws
    /// Signs out of one account: its session (and key) leave the keyring.
    func signOut(_ account: SignedInAccount) async throws
    /// Called when a signed-in session ends (the backend rejected it) or changes (refreshed).
    var onAccountChange: (@MainActor (AccountChange) -> Void)? { get set }
    /// Starts the next browser sign-ins from `anchor`'s window: the browser gets it as its parent.
    func setPresentationAnchor(_ anchor: any PresentationAnchor)
}

/// A backend that signs in with an emailed link (Portal's magic links).
@MainActor
public protocol EmailLinkSignIn: AccountService {
    func sendMagicLink(to email: String) async throws
}

/// A backend whose sign-in can ask for a two-factor code (Portal's TOTP).
@MainActor
public protocol TwoFactorSignIn: AccountService {
    func verify(code: String, for challenge: CodeChallenge) async throws -> SignedInAccount
}

/// What the sign-in page offers.
public struct SignInChoices: Sendable, Equatable {
    public var providers: [SignInProvider]
    public var emailLinks: Bool

    public init(providers: [SignInProvider], emailLinks: Bool = false) {
        self.providers = providers
        self.emailLinks = emailLinks
    }
}

/// A signed-in session that changed while the app runs.
public enum AccountChange: Sendable, Equatable {
    /// The backend rejected (or ended) the session of the account with this `id`.
    case ended(id: String)
    /// The session was refreshed: a new expiry.
    case updated(SignedInAccount)
}

/// What the desktop gives the flow beside the backend: the redirect scheme's handler, the keyring's
/// presence, the browser, and the words for errors. The app injects PortalAuthGNOME's pieces and its
/// table of words; tests inject fakes.
@MainActor
public protocol AccountDesktop: AnyObject {
    /// The name of another app that handles the redirect scheme instead of this one, if any.
    func foreignSchemeHandler() -> String?
    /// Makes this app the scheme's default handler again.
    func claimSchemeHandler() throws
    /// Whether a keyring (a Secret Service) is there to keep a session in. Asked before anything
    /// that would spend a grant: without one, a session would be made that nobody holds.
    func keyringAvailable() async -> Bool
    /// Calls `changed` whenever a keyring service may have come or gone (and once at the start).
    func watchKeyring(_ changed: @escaping @MainActor @Sendable () -> Void)
    /// Opens `url` in the person's browser ("Open Again").
    func openInBrowser(_ url: URL) async throws
    /// The error in the user's words, with the next step the banner offers.
    func describe(_ error: any Error, backend: Backend) -> UserFacingError
    /// How long the backend asked to wait before asking again, when `error` is its rate limit.
    func retryAfter(_ error: any Error) -> Double?
    /// Returns once the window has drawn its first frame. The flow asks the network and the keyring
    /// only after it: the libraries that speak to them are opened on first use, and the first frame
    /// (the status page) needs neither.
    func firstFrameDrawn() async
}

extension AccountDesktop {
    public func retryAfter(_ error: any Error) -> Double? { nil }
    /// No window to wait for.
    public func firstFrameDrawn() async {}
}

/// What a redirect finishes: a provider sign-in or an email link.
public enum SignInMethod: Sendable, Equatable {
    case provider(SignInProvider)
    case emailLink(email: String?)
}

/// What the window must do with a URI, as the backend's one parse of it decided.
public enum RedirectVerdict: Sendable, Equatable {
    /// Not a redirect for this app (another app's link, a pasted mistake): nothing happens.
    case notMine
    /// The running browser sign-in took it (its redirect, or its failure report): `signIn(with:)`
    /// finishes with the outcome.
    case taken
    /// A failure report no sign-in here waits for (a provider page pressed twice, a stale tab).
    case ignore
    /// For this app, but it can never finish here (its `state` is not one this app issued):
    /// refused, nothing sent.
    case refuse(SignInMethod?)
    /// This app asked for it (an email link it sent, a redirect it just handled, delivered again):
    /// exchange it — after asking, when it would replace the account signed in.
    case exchange(HeldRedirect)
    /// Nobody running asked for it (unsolicited, or a sign-in started before the app last ended):
    /// the person decides.
    case ask(HeldRedirect)
}

extension RedirectVerdict {
    /// The verdict on a redirect that can sign in and was not taken by a running sign-in: exchanged
    /// when this app asked for it (awaited, or just handled and delivered again), asked about when not.
    public static func signIn(_ redirect: HeldRedirect) -> RedirectVerdict {
        switch redirect.standing {
        case .awaited, .repeated: .exchange(redirect)
        case .earlierRun, .unsolicited: .ask(redirect)
        }
    }
}

/// A redirect `offer` parsed, held until it is exchanged (or ignored): what it signs in with and who
/// asked for it, as found then, and what the backend needs to finish it without parsing it again.
public struct HeldRedirect: Sendable, Equatable, CustomStringConvertible {
    public let method: SignInMethod
    public let standing: RedirectStanding
    /// The backend's own parse (`PortalAuth.IncomingRedirect`, `TurnkeyIncomingCallback`).
    public let parsed: any OfferedRedirect
    /// Identifies the URI (two offers of the same URI compare equal); never the URI itself.
    private let identity: Int

    public init(method: SignInMethod, standing: RedirectStanding, parsed: any OfferedRedirect, uri: String) {
        self.method = method
        self.standing = standing
        self.parsed = parsed
        self.identity = uri.hashValue
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.method == rhs.method && lhs.standing == rhs.standing && lhs.identity == rhs.identity
    }

    /// Never the grant: what it is and who asked for it.
    public var description: String { "HeldRedirect(\(method), \(standing))" }
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
    public enum Kind: Sendable {
        case general, cancelled, wrongCode, tooManyCodes, sessionEnded
        /// Cancelled or refused at the provider: a notice, the sign-in page is the next step.
        case cancelledAtProvider
        /// No keyring service, or a locked keyring: a page of its own until it is resolved.
        case keyringMissing, keyringLocked
    }

    public let message: String
    public let nextStep: NextStep
    public let kind: Kind

    public init(message: String, nextStep: NextStep, kind: Kind = .general) {
        self.message = message
        self.nextStep = nextStep
        self.kind = kind
    }
}
