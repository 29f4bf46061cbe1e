/// The redirect of a sign-in whose redirect URL is `http://127.0.0.1:PORT/PATH` (RFC 8252 §7.3):
/// the browser brings it to a port this process holds, so no other program can receive it.
public protocol LoopbackRedirectListening: Sendable {
    /// Binds 127.0.0.1:`port` now, before the sign-in asks for anything, and returns the wait; port 0
    /// binds any free port (the wait's `port` says which). A port this process still holds from an
    /// ended sign-in is taken back. `classify` judges each request by its URL
    /// (`http://127.0.0.1:PORT` + the request target); the first one it takes ends the wait.
    ///
    /// Once the wait ends (taken, closed, failed) the port stays bound for `holdingPortFor`, answering
    /// late requests with a "this sign-in has ended" page and taking none: a provider's tab that
    /// finishes after a cancel must not find the port free for another user's program.
    /// - Throws: `LoopbackListenError`; never listens on a port another socket holds or shares.
    func listen(
        port: UInt16, holdingPortFor: Duration, classify: @escaping @Sendable (String) -> LoopbackRequestVerdict
    ) async throws
        -> any LoopbackRedirectListener
}

/// One sign-in's wait for its one request on a bound port.
public protocol LoopbackRedirectListener: Sendable {
    /// The port listened on: the one asked for, or the one the system chose for port 0.
    var port: UInt16 { get }
    /// The URL of the request `classify` took, once it has been answered; nil when `close()` came first.
    /// - Throws: `LoopbackListenError.interfered` when connections could not be accepted for seconds
    ///   (the process ran out of file descriptors): the wait has ended.
    func redirect() async throws -> String?
    /// Ends the wait (cancel, time-out, done); a waiting `redirect()` returns nil. Idempotent. The
    /// port itself stays held as `listen` says.
    func close()
}

/// What a loopback listener does with a request.
public enum LoopbackRequestVerdict: Sendable, Equatable {
    /// The sign-in's redirect: answered with the "you can close this tab" page; the wait ends.
    case take
    /// Another path (a favicon, a probe): 404, and the listener keeps waiting.
    case notFound
    /// The right path without a sign-in result for this sign-in: 400, and the listener keeps waiting.
    case notASignIn
}

/// Why a loopback redirect port could not be listened on, or stopped being listened on.
public enum LoopbackListenError: Error, Sendable, Equatable {
    /// Another socket (any user's) holds the port: nothing was sent and no browser opened.
    case portInUse(port: UInt16)
    /// The port could not be bound for another reason (a privileged port…); `reason` is the system's words.
    case cannotListen(port: UInt16, reason: String)
    /// Connections to the port could not be accepted for seconds (this program ran out of file
    /// descriptors): something on this computer is interfering with the sign-in, which has ended.
    case interfered(port: UInt16)
}
