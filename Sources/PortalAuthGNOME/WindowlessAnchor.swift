import AuthBase

/// The anchor of a program that has no window, such as a command-line client: always available, and
/// no parent for what the sign-in opens (the browser starts as a new window of its own).
public struct WindowlessAnchor: PresentationAnchor {
    /// The anchor; there is nothing to name.
    public init() {}

    /// Always true: there is no window to lose.
    public var isAvailable: Bool { true }
    /// Always "": no parent window.
    public func parentWindow() async -> String { "" }
    /// Always nil: no display to ask for a token.
    public func activationToken() async -> String? { nil }
}
