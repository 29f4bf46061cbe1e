/// A sign-out that failed, so the account is still signed in. It keeps the failure apart from a
/// failed save: a keyring that refused to let the session go reads as "still signed in", never as
/// "could not be saved".
struct SignOutError: Error {
    let underlying: any Error
}
