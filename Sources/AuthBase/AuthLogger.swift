/// Receives a few lines about what a core is doing ("exchanging an OAuth grant", "session saved for
/// end user …"). Lines never contain a grant, token, JWT, private key or PKCE verifier: the cores
/// redact what came from outside before they log it.
public protocol AuthLogger: Sendable {
    /// Receives one line; it holds no secret. Called from any task, so an implementation must be
    /// safe to call concurrently.
    func log(_ message: String)
}
