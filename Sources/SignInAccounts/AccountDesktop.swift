import AuthBase
import SignInFlow

/// What an account service needs of the desktop beside its core: the redirect scheme's handler,
/// the keyring's presence, and the words for errors. The app injects AuthPlatform's pieces and its
/// table of words; tests inject fakes.
@MainActor
public protocol AccountDesktop: AnyObject {
    /// The name of another app that handles the redirect scheme instead of this one, if any.
    func foreignSchemeHandler() -> String?
    /// Makes this app the scheme's default handler again.
    func claimSchemeHandler() throws
    /// Whether a keyring (a Secret Service) is there to keep a session in.
    func keyringAvailable() async -> Bool
    /// Calls `changed` whenever a keyring service may have come or gone (and once at the start).
    func watchKeyring(_ changed: @escaping @MainActor @Sendable () -> Void)
    /// The error in the user's words, with the next step the banner offers.
    func describe(_ error: any Error, backend: Backend) -> UserFacingError
}

extension Solicitation {
    /// The flow's word for how a redirect stands to the core's sign-ins.
    init(_ standing: RedirectStanding) {
        switch standing {
        case .awaited: self = .started
        case .repeated: self = .repeated
        case .earlierRun: self = .startedBeforeRestart
        case .unsolicited: self = .unsolicited
        }
    }
}
