import AuthBase
import AuthPlatform

/// Commands that would spend a grant (or start a sign-in whose redirect will) refuse before
/// sending anything when no Secret Service is there: the session they make could not be kept, and
/// Portal would hold a live session nobody has.
enum KeyringCheck {
    /// The storage failure to report instead of running `needsKeyring`'s command, or nil to go on.
    static func refusal(needsKeyring: Bool) -> ErrorReport? {
        guard needsKeyring, !SecretServicePresence.check() else { return nil }
        return ErrorReport(SessionStoreError(.noService))
    }
}

extension Invocation.Command {
    /// Starts a sign-in or spends a grant, a magic-link token or a user JWT for a session.
    var needsKeyring: Bool {
        switch self {
        case .loginURL, .signIn, .handleRedirect, .verifyTotp, .sendMagicLink: return true
        case .help, .methods, .session, .client, .signOut: return false
        }
    }
}

extension TurnkeyInvocation.Command {
    /// Makes a session key, or spends a redirect or an OIDC token for a session.
    var needsKeyring: Bool {
        switch self {
        case .loginURL, .handleRedirect, .completeOAuth: return true
        case .help, .providers, .session, .sessions, .whoami, .refresh, .signOut: return false
        }
    }
}
