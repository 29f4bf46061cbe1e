/// The embedded-wallet platform a sign-in goes to (GSettings `backend`, `PORTAL_SIGN_IN_BACKEND`).
public enum Backend: String, Sendable, CaseIterable {
    /// Portal's embedded wallets: the `PortalAuth` core.
    case portal
    /// Turnkey's embedded wallets: the `TurnkeyAuth` core.
    case turnkey
}
