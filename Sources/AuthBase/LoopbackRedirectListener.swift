/// The redirect of a sign-in whose redirect URL is `http://127.0.0.1:PORT/PATH` (RFC 8252 §7.3):
/// the browser brings it to a port this process holds, so no other program can receive it.
public protocol LoopbackRedirectListening: Sendable {
    /// Binds 127.0.0.1:`port` now, before the sign-in asks for anything, and returns the listener.
    /// `classify` judges each request by its URL (`http://127.0.0.1:PORT` + the request target); the
    /// first one it takes ends the listening.
    /// - Throws: `LoopbackListenError`; never listens on a port another socket holds or shares.
    func listen(
        port: UInt16, classify: @escaping @Sendable (String) -> LoopbackRequestVerdict
    ) async throws
        -> any LoopbackRedirectListener
}

/// One bound port waiting for its one request.
public protocol LoopbackRedirectListener: Sendable {
    /// The URL of the request `classify` took, once it has been answered; nil when `close()` came first.
    func redirect() async -> String?
    /// Stops listening (cancel, time-out, done); a waiting `redirect()` returns nil. Idempotent.
    func close()
}

/// What a loopback listener does with a request.
public enum LoopbackRequestVerdict: Sendable, Equatable {
    /// The sign-in's redirect: answered with the "you can close this tab" page; the port closes.
    case take
    /// Another path (a favicon, a probe): 404, and the listener keeps waiting.
    case notFound
    /// The right path without a sign-in result for this sign-in: 400, and the listener keeps waiting.
    case notASignIn
}

public enum LoopbackListenError: Error, Sendable, Equatable {
    /// Another socket (any user's) holds the port: nothing was sent and no browser opened.
    case portInUse(port: UInt16)
    /// The port could not be bound for another reason (a privileged port…); `reason` is the system's words.
    case cannotListen(port: UInt16, reason: String)
}
