import Foundation

/// What the window asks of the sign-in machinery. The one implementation, `PortalAccountService`,
/// is built on PortalAuth and PortalAuthGNOME; the window never sees HTTP, the keyring, or a secret.

enum SignInProvider { case google, apple }

/// The signed-in end user, as the "Signed in" page shows it.
struct SignedInAccount {
    let endUserId: String
    let clientId: String?
    let isAccountAbstracted: Bool?
}

/// A sign-in that needs a two-factor code. The user JWT stays inside the service.
struct CodeChallenge {
    let id: UUID
    /// The otpauth:// link, only on first enrolment.
    let totpLink: String?
    /// The base32 secret from that link, to type into an authenticator by hand.
    let totpSecret: String?
}

enum SignInOutcome {
    case signedIn(SignedInAccount)
    case needsCode(CodeChallenge)
}

/// An error in words for the banner, with the action its button offers.
struct UserFacingError {
    enum NextStep { case tryAgain, signInAgain, dismiss }
    let message: String
    let nextStep: NextStep
    /// The user cancelled; nothing to show.
    var isCancellation = false
    /// Portal refused the two-factor code; the code page stays and says so.
    var isWrongCode = false
}

@MainActor
protocol AccountService: AnyObject {
    /// Loads the stored session and checks it with Portal; nil when there is none (or it was rejected).
    func restore() async throws -> SignedInAccount?
    /// Opens the provider in the browser and waits for the redirect.
    func signIn(with provider: SignInProvider) async throws -> SignInOutcome
    /// The authorize URL of the running browser sign-in (for "Copy link").
    var currentAuthorizeURL: URL? { get }
    /// Opens the running sign-in's page in the browser again.
    func openAuthorizeURLAgain() async throws
    func sendMagicLink(to email: String) async throws
    /// A URI from the desktop (::open) or pasted by the user. A waiting sign-in takes it (nil is
    /// returned, the waiting `signIn` completes); else it is handled as a redirect on its own.
    /// Returns nil too for a URI that is not this app's redirect.
    func receive(_ uri: String) async throws -> SignInOutcome?
    func verify(code: String, for challenge: CodeChallenge) async throws -> SignedInAccount
    /// Checks the current session with Portal (a 401 fires `onSessionInvalidated`).
    func checkSession() async throws
    func signOut() async throws
    /// Called once when Portal rejects the signed-in session.
    var onSessionInvalidated: (@MainActor () -> Void)? { get set }
    func describe(_ error: Error) -> UserFacingError
}
