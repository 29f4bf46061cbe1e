import AuthBase

/// The desktop handing URLs to a core's in-flight browser sign-in, as the app does with `::open`.
public struct DesktopRedirects: Sendable {
    private let core: any BrowserSignInCore

    public init(_ core: any BrowserSignInCore) { self.core = core }

    /// Whether the in-flight sign-in took `url` (false when none runs or it is not its redirect).
    @discardableResult
    public func deliver(_ url: String) -> Bool { core.browserSignIn?.resume(with: url) ?? false }

    /// Whether a sign-in waits for its redirect.
    public var isWaiting: Bool { core.browserSignIn != nil }
}
