import Foundation

/// What the sign-in window asks of a backend (Portal today; Turnkey next). An implementation turns
/// its core's errors into `UserFacingError`s; the flow and the window never see HTTP, the keyring,
/// a grant or a token.
@MainActor
public protocol AccountService: AnyObject {
    /// The providers this backend enables, in the order the sign-in page shows them.
    func providers() async -> [SignInProvider]
    /// Whether email links are offered (Portal's magic links).
    var offersEmailLinks: Bool { get }
    /// The stored session, checked with the backend; nil when there is none (or it was rejected).
    func restore() async throws -> SignedInAccount?
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
    /// Checks the current session with the backend (a rejection fires `onSessionInvalidated`).
    func checkSession() async throws
    func signOut() async throws
    /// Called once when the backend rejects the signed-in session.
    var onSessionInvalidated: (@MainActor () -> Void)? { get set }
    /// The name of another app that handles the redirect scheme instead of this one, if any.
    func foreignSchemeHandler() -> String?
    /// Makes this app the scheme's default handler again.
    func claimSchemeHandler() throws
    /// The error in the user's words, with the next step the banner offers.
    func describe(_ error: any Error) -> UserFacingError
}

/// A way to sign in, in the order the sign-in page lists them.
public enum SignInProvider: String, Sendable, CaseIterable, Comparable {
    case google, apple, discord, x

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
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
}

public enum Solicitation: Sendable, Equatable {
    /// Nothing this app started (or it was cancelled, or it expired): ask before exchanging.
    case unsolicited
    /// A sign-in this app started and is waiting for.
    case started
    /// The redirect of a sign-in that just finished, delivered again: it replays, nothing is sent.
    case repeated
}

/// The session the banner reports as ended (the service words it).
public struct SessionEndedError: Error, Sendable {
    public init() {}
}

/// The signed-in account, as the "Signed in" page shows it.
public struct SignedInAccount: Sendable, Equatable {
    public let endUserId: String
    public let clientId: String?
    public let isAccountAbstracted: Bool?

    public init(endUserId: String, clientId: String?, isAccountAbstracted: Bool?) {
        self.endUserId = endUserId
        self.clientId = clientId
        self.isAccountAbstracted = isAccountAbstracted
    }
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
