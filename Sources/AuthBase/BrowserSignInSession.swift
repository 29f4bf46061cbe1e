import FoundationEssentials
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

/// What a core's `offer` found a URL to be: how it stands to the core's sign-ins, and whether the
/// browser sign-in waiting for it took it. Parsed once; the value carries what finishing it needs.
public protocol OfferedRedirect: Sendable {
    /// How the URL stands to the core's sign-ins, judged before anything is sent.
    var standing: RedirectStanding { get }
    /// The running browser sign-in took it: that sign-in finishes it, nothing else may.
    var isTaken: Bool { get }
}

/// The in-flight browser sign-in of a core, as AppAuth's `OIDExternalUserAgentSession`: the core
/// opens the browser and waits here; the core's `offer` hands it the redirect it parsed and found
/// awaited (`resume`), once; Cancel, sign-out and the app's end `close` it.
package final class BrowserSignInSession<Redirect: Sendable>: Sendable {
    private enum State {
        /// Not awaited yet: a redirect that arrives while the browser is still opening is kept.
        case open(early: Redirect?)
        case awaited(CheckedContinuation<Redirect, any Error>)
        case resumed
        case closed
    }

    private let state: Mutex<State> = Mutex(.open(early: nil))
    private let onClose: @Sendable () -> Void
    /// The page the browser was sent to ("Copy Link", "Open Again").
    package let authorizeURL: URL
    /// False when the redirect comes another way (a loopback listener): the desktop's URLs are not for it.
    package let takesRedirectsFromTheDesktop: Bool

    /// `onClose`: runs once when the sign-in is closed before its redirect came (a loopback listener
    /// closes its port).
    package init(authorizeURL: URL, takesRedirectsFromTheDesktop: Bool = true, onClose: @escaping @Sendable () -> Void = {}) {
        self.authorizeURL = authorizeURL
        self.takesRedirectsFromTheDesktop = takesRedirectsFromTheDesktop
        self.onClose = onClose
    }

    /// Hands the sign-in its redirect, which the core parsed and found to be the one it awaits: true
    /// when it took it; false once it took one or was closed, or when its redirect comes another way.
    @discardableResult
    package func resume(with redirect: Redirect) -> Bool {
        guard takesRedirectsFromTheDesktop else { return false }
        let (taken, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Redirect, any Error>?) in
            switch state {
            case .open(early: nil):
                state = .open(early: redirect)
                return (true, nil)
            case .awaited(let continuation):
                state = .resumed
                return (true, continuation)
            case .open, .resumed, .closed:
                return (false, nil)
            }
        }
        waiter?.resume(returning: redirect)
        return taken
    }

    /// Ends the sign-in: its wait throws `CancellationError`, and it takes no redirect from now on.
    package func close() {
        let (closed, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Redirect, any Error>?) in
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

    package var isClosed: Bool {
        state.withLock { if case .closed = $0 { true } else { false } }
    }

    /// The redirect `resume` handed over. Throws `CancellationError` once closed, and cancelling the
    /// calling task closes the sign-in.
    package func redirect() async throws -> Redirect {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Redirect, any Error>) in
                let early = state.withLock { state -> Result<Redirect, any Error>? in
                    switch state {
                    case .open(early: let redirect?):
                        state = .resumed
                        return .success(redirect)
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
package final class BrowserSignInSlot<Redirect: Sendable>: Sendable {
    private let current = Mutex<(running: Bool, session: BrowserSignInSession<Redirect>?)>((false, nil))

    package init() {}

    /// Reserves the slot; false when a sign-in already runs.
    package func reserve() -> Bool {
        current.withLock { current in
            guard !current.running else { return false }
            current = (true, nil)
            return true
        }
    }

    /// Makes `session` the one the core's `offer` hands redirects to (before the browser opens).
    package func open(_ session: BrowserSignInSession<Redirect>) {
        current.withLock { $0.session = session }
    }

    /// Ends the reservation and closes its session (a no-op when it already took its redirect).
    package func release() {
        let session = current.withLock { current in
            defer { current = (false, nil) }
            return current.session
        }
        session?.close()
    }

    /// The sign-in waiting for its redirect, if one runs.
    package var session: BrowserSignInSession<Redirect>? { current.withLock { $0.session } }
}

/// A core the app drives a browser sign-in of: `PortalAuth` and `TurnkeyAuth`. The app offers it
/// each URL the desktop delivers, once (as AppAuth's `resumeExternalUserAgentFlowWithURL:`).
public protocol BrowserSignInCore: Sendable {
    /// What `offer(_:)` found a URL to be: `IncomingRedirect` (Portal), `TurnkeyIncomingCallback` (Turnkey).
    associatedtype Offered: OfferedRedirect
    /// Parses `url` once: nil when it is no redirect for this core; otherwise how it stands, and
    /// when the running browser sign-in awaits it, that sign-in has taken it (`isTaken`).
    func offer(_ url: String) -> Offered?
    /// The page the running browser sign-in opened (nil when none runs).
    var browserSignInPage: URL? { get }
    /// Ends the running browser sign-in (Cancel, the window closed): a later redirect is unsolicited.
    func cancelBrowserSignIn()
}
