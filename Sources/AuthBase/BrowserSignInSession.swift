import Synchronization

/// How an incoming URL stands to a core's browser sign-ins, before anything is sent. A URL that is
/// no redirect for the core at all (another app's, a mistaken paste) has no standing: the core
/// answers nil.
public enum RedirectStanding: Sendable, Equatable {
    /// What a sign-in this process started waits for.
    case awaited
    /// A redirect this process already handled, delivered again: handling it replays, nothing is sent.
    case repeated
    /// It matches a sign-in an earlier run started (quit, crashed, killed): nobody waits for it now,
    /// and anyone may have finished it since, so the app asks first.
    case earlierRun
    /// For this app, but nothing here asked for it.
    case unsolicited
}

/// The in-flight browser sign-in of a core, as AppAuth's `OIDExternalUserAgentSession`: the core
/// opens the browser and waits here; the app hands it each URL the desktop delivers (`resume`),
/// and it takes its own redirect, once; Cancel, sign-out and the app's end `close` it.
public final class BrowserSignInSession: Sendable {
    private enum State {
        /// Not awaited yet: a redirect that arrives while the browser is still opening is kept.
        case open(early: String?)
        case awaited(CheckedContinuation<String, any Error>)
        case resumed
        case closed
    }

    private let state = Mutex(State.open(early: nil))
    private let isOwnRedirect: @Sendable (String) -> Bool
    private let onClose: @Sendable () -> Void

    /// `isOwnRedirect`: whether a URL is this sign-in's redirect. `onClose`: runs once when the
    /// sign-in is closed before its redirect came (a loopback listener closes its port).
    public init(isOwnRedirect: @escaping @Sendable (String) -> Bool, onClose: @escaping @Sendable () -> Void = {}) {
        self.isOwnRedirect = isOwnRedirect
        self.onClose = onClose
    }

    /// Hands `url` to the sign-in: true when it was this sign-in's redirect and it took it; false
    /// for any other URL, and for every URL once the sign-in took one or was closed.
    @discardableResult
    public func resume(with url: String) -> Bool {
        guard isOwnRedirect(url) else { return false }
        let (taken, waiter) = state.withLock { state -> (Bool, CheckedContinuation<String, any Error>?) in
            switch state {
            case .open(early: nil):
                state = .open(early: url)
                return (true, nil)
            case .awaited(let continuation):
                state = .resumed
                return (true, continuation)
            case .open, .resumed, .closed:
                return (false, nil)
            }
        }
        waiter?.resume(returning: url)
        return taken
    }

    /// Ends the sign-in: its wait throws `CancellationError`, and it takes no URL from now on.
    public func close() {
        let (closed, waiter) = state.withLock { state -> (Bool, CheckedContinuation<String, any Error>?) in
            switch state {
            case .open:
                state = .closed
                return (true, nil)
            case .awaited(let continuation):
                state = .closed
                return (true, continuation)
            case .resumed, .closed:
                return (false, nil)
            }
        }
        waiter?.resume(throwing: CancellationError())
        if closed { onClose() }
    }

    public var isClosed: Bool {
        state.withLock { if case .closed = $0 { true } else { false } }
    }

    /// The redirect `resume` took. Throws `CancellationError` once closed, and cancelling the
    /// calling task closes the sign-in.
    public func redirect() async throws -> String {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
                let early = state.withLock { state -> Result<String, any Error>? in
                    switch state {
                    case .open(early: let url?):
                        state = .resumed
                        return .success(url)
                    case .open(early: nil):
                        state = .awaited(continuation)
                        return nil
                    case .awaited, .resumed, .closed:
                        return .failure(CancellationError())
                    }
                }
                if let early { continuation.resume(with: early) }
            }
        } onCancel: {
            close()
        }
    }
}

/// A core's one in-flight browser sign-in: a second is refused while one runs.
public final class BrowserSignInSlot: Sendable {
    private let current = Mutex<(running: Bool, session: BrowserSignInSession?)>((false, nil))

    public init() {}

    /// Reserves the slot; false when a sign-in already runs.
    public func reserve() -> Bool {
        current.withLock { current in
            guard !current.running else { return false }
            current = (true, nil)
            return true
        }
    }

    /// Makes `session` the one the app's URLs go to (before the browser opens).
    public func open(_ session: BrowserSignInSession) {
        current.withLock { $0.session = session }
    }

    /// Ends the reservation and closes its session (a no-op when it already took its redirect).
    public func release() {
        let session = current.withLock { current in
            defer { current = (false, nil) }
            return current.session
        }
        session?.close()
    }

    /// The sign-in waiting for its redirect, if one runs.
    public var session: BrowserSignInSession? { current.withLock { $0.session } }
}

/// A core the app drives a browser sign-in of: `PortalAuth` and `TurnkeyAuth`.
public protocol BrowserSignInCore: Sendable {
    /// The in-flight browser sign-in (nil when none runs): the app resumes it with each URL the
    /// desktop delivers, and closes it on Cancel.
    var browserSignIn: BrowserSignInSession? { get }
    /// How `url` stands to this core's sign-ins; nil when it is no redirect for this core.
    func standing(of url: String) -> RedirectStanding?
}
