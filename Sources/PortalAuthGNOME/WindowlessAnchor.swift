import AuthBase

/// The anchor of a program that has no window, such as a command-line client: always available, and
/// no parent for what the sign-in opens (the browser starts as a new window of its own).
public struct WindowlessAnchor: PresentationAnchor {
    public init() {}

    public var isAvailable: Bool { true }
    public func parentWindow() async -> String { "" }
    public func activationToken() async -> String? { nil }
}
