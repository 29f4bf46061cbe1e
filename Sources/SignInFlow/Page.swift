/// What the window shows: one page, at most one error banner, and a warning when another app owns
/// the redirect scheme. The flow produces these; the window only draws them.
public enum Page: Sendable, Equatable {
    /// Restoring the saved session (or handling the URI the app was started with).
    case loading
    case signIn(SignInPageState)
    /// "Continue in Your Browser" for a running provider sign-in.
    case waitingForBrowser(provider: SignInProvider, pasteProblem: PasteProblem?)
    /// The redirect arrived and is being exchanged; too late to cancel.
    case completing
    case code(CodeChallenge, wrongCode: UserFacingError?)
    case emailSent(email: String)
    /// "Finish Signing In?" for a redirect this app did not start (or one that would replace the
    /// signed-in account).
    case confirmRedirect(ConfirmRedirect)
    case signedIn(SignedInPageState)
    /// No service is set up yet: which one, and whether the choice can be saved.
    case setUp(SetUpPageState)
    /// Nothing can go on until this is resolved: what happened, in words, and the one action that helps.
    case blocked(BlockedPageState)
}

public struct BlockedPageState: Sendable, Equatable {
    public var blocker: Blocker
    /// What happened and what helps, in the person's words.
    public var message: String

    public init(_ blocker: Blocker, message: String) {
        self.blocker = blocker
        self.message = message
    }
}

/// What stops the window until the person acts.
public enum Blocker: Sendable, Equatable {
    /// No Secret Service is running: Try Again (it also goes on by itself once one starts).
    case noKeyring
    /// The keyring is locked: Unlock (tries again, and the keyring asks for its password).
    case keyringLocked
    /// The backend ended the session: Sign In Again starts a sign-in (with the same provider when known).
    case sessionEnded(provider: SignInProvider?)
}

public struct SetUpPageState: Sendable, Equatable {
    public var backend: Backend
    /// The GSettings schema is installed: the choice can be saved.
    public var canSave: Bool

    public init(backend: Backend, canSave: Bool) {
        self.backend = backend
        self.canSave = canSave
    }
}

public struct SignedInPageState: Sendable, Equatable {
    /// Every signed-in account, in the order they were added.
    public var accounts: [SignedInAccount]
    /// The one the page shows.
    public var current: SignedInAccount
    /// Another account can be added (Turnkey's several sessions).
    public var canAddAccounts: Bool
    /// Who, where and which wallets, for the account shown.
    public var profile: ProfileLookup

    public init(accounts: [SignedInAccount], current: SignedInAccount, canAddAccounts: Bool, profile: ProfileLookup = .loading) {
        self.accounts = accounts
        self.current = current
        self.canAddAccounts = canAddAccounts
        self.profile = profile
    }
}

public struct SignInPageState: Sendable, Equatable {
    public var backend: Backend
    public var providers: [SignInProvider]
    public var offersEmailLinks: Bool
    /// A request runs (sending an email link): the controls are disabled.
    public var busy: Bool
    /// Accounts are signed in already (adding another): the page offers the way back to them.
    public var canGoBack: Bool
    /// No keyring service is running: the sign-in controls wait for one (the banner says why).
    public var waitingForKeyring: Bool

    public init(
        backend: Backend = .portal, providers: [SignInProvider], offersEmailLinks: Bool, busy: Bool, canGoBack: Bool = false,
        waitingForKeyring: Bool = false
    ) {
        self.backend = backend
        self.providers = providers
        self.offersEmailLinks = offersEmailLinks
        self.busy = busy
        self.canGoBack = canGoBack
        self.waitingForKeyring = waitingForKeyring
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
    /// It matches a sign-in started before the app last ended (quit, crashed, killed).
    public let startedBeforeRestart: Bool

    public init(method: SignInMethod, replacesAccount: SignedInAccount?, startedBeforeRestart: Bool = false) {
        self.method = method
        self.replacesAccount = replacesAccount
        self.startedBeforeRestart = startedBeforeRestart
    }
}

/// One-off notices: the window shows most briefly (a toast).
public enum Notice: Sendable, Equatable {
    case linkCopied
    /// Resend on "Check Your Email" sent a new link.
    case linkSent
    case signedOut
    /// The sign-in was cancelled or refused at the provider: the sign-in page is the next step.
    case signInCancelled
    /// Try Again found no keyring yet.
    case keyringStillMissing
    /// One of several accounts' sessions ended (the others stay shown).
    case sessionEnded(message: String)
    case redirectIgnored
    /// A sign-in finished from its redirect while the person may be looking at the browser.
    case signInFinished(SignInFinish)
}

public enum SignInFinish: Sendable, Equatable {
    case signedIn(SignedInAccount)
    case needsCode
}
