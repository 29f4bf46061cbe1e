import FoundationEssentials

/// Opens a URL in the user's own browser (never an embedded web view, RFC 8252 §8.12).
/// Throwing means no browser could be started; a sign-in reports that as unavailable.
public protocol BrowserLauncher: Sendable {
    /// Opens `url` in the user's browser, with no window to parent it to.
    /// - Throws: any error when no browser could be started.
    func open(_ url: URL) async throws
    /// Opens `url` for a sign-in started from `anchor`'s window, which the desktop may use as the
    /// parent of what it shows and to raise the browser (see `PresentationAnchor`).
    func open(_ url: URL, from anchor: (any PresentationAnchor)?) async throws
}
