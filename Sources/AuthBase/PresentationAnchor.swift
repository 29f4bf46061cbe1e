import FoundationEssentials

/// The window a sign-in is started from: the Linux counterpart of `ASPresentationAnchor`.
///
/// An anchor names a window without keeping it alive, as `setAuthPresentationAnchor(_:)` and
/// Turnkey's `handle*OAuth(anchor:)` hold theirs weakly: once the window is gone, `isAvailable`
/// is false and a sign-in started from it throws `.unavailable`. The desktop uses the window where it
/// needs a parent: the OpenURI portal's `parent_window`, and an activation token that lets the
/// browser come to the front.
public protocol PresentationAnchor: Sendable {
    /// False once the window is gone (closed, destroyed).
    var isAvailable: Bool { get }
    /// The window as xdg-desktop-portal names a parent (`x11:1e00004`, `wayland:…`), or "" when it has
    /// no handle the desktop can use (not yet shown, or gone).
    func parentWindow() async -> String
    /// An XDG activation (or X11 startup-notification) token for what the sign-in starts, or nil.
    func activationToken() async -> String?
}

extension BrowserLauncher {
    /// A launcher that cannot use a parent opens the URL as it would without one.
    public func open(_ url: URL, from anchor: (any PresentationAnchor)?) async throws {
        try await open(url)
    }
}
