/// A sign-out that failed, so the account is still signed in. It keeps the failure apart from a
/// failed save: a keyring that refused to let the session go reads as "still signed in", never as
/// "could not be saved".
public struct SignOutError: Error {
    public let underlying: any Error

    public init(underlying: any Error) { self.underlying = underlying }
}

/// A two-factor code the backend refused (the app words it).
public enum TwoFactorCodeError: Error, Sendable, Equatable {
    /// Not the current code: the sign-in stays usable, the person types it again.
    case wrongCode
    /// Too many wrong codes: the sign-in has to start again.
    case tooManyCodes
}
