/// The embedded-wallet platform a sign-in goes to (GSettings `backend`, `PORTAL_SIGN_IN_BACKEND`).
public enum Backend: String, Sendable, CaseIterable {
    case portal, turnkey
}
