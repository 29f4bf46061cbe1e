import FoundationEssentials

/// Opens a URL in the user's own browser (never an embedded web view, RFC 8252 §8.12).
/// Throwing means no browser could be started; a sign-in reports that as unavailable.
public protocol BrowserLauncher: Sendable {
    func open(_ url: URL) async throws
}
