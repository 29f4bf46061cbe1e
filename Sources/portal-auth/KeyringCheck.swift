import AuthBase
import PortalAuthGNOME

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
