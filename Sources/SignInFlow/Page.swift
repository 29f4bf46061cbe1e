/// What the window shows: one page, at most one error banner, and a warning when another app owns
/// the redirect scheme. The flow produces these; the window only draws them.
public enum Page: Sendable, Equatable {
    /// Restoring the saved session (or handling the URI the app was started with).
    case loading
    case signIn(SignInPageState)
    /// "Continue in your browser" for a running provider sign-in.
    case waitingForBrowser(provider: SignInProvider, pasteProblem: PasteProblem?)
    /// The redirect arrived and is being exchanged; too late to cancel.
    case completing
    case code(CodeChallenge, wrongCode: UserFacingError?)
    case emailSent(email: String)
    /// "Finish signing in?" for a redirect this app did not start (or one that would replace the
    /// signed-in account).
    case confirmRedirect(ConfirmRedirect)
    case signedIn(SignedInAccount)
}

public struct SignInPageState: Sendable, Equatable {
    public var providers: [SignInProvider]
    public var offersEmailLinks: Bool
    /// A request runs (sending an email link): the controls are disabled.
    public var busy: Bool

    public init(providers: [SignInProvider], offersEmailLinks: Bool, busy: Bool) {
        self.providers = providers
        self.offersEmailLinks = offersEmailLinks
        self.busy = busy
    }
}

/// Why a pasted text was not taken; the sign-in keeps waiting.
public enum PasteProblem: Sendable, Equatable {
    /// Not a redirect for this app at all.
    case notASignInLink
    /// A redirect for this app, but for another sign-in than the one waiting.
    case anotherSignIn
}

public struct ConfirmRedirect: Sendable, Equatable {
    /// What the link would sign in with.
    public let method: SignInMethod
    /// Continuing replaces the signed-in account.
    public let replacesAccount: SignedInAccount?

    public init(method: SignInMethod, replacesAccount: SignedInAccount?) {
        self.method = method
        self.replacesAccount = replacesAccount
    }
}

/// One-off notices the window shows briefly (a toast).
public enum Notice: Sendable, Equatable {
    case linkCopied
    case signedOut
    case redirectIgnored
}
