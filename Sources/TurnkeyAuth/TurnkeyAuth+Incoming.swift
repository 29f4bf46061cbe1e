import FoundationEssentials

/// What an incoming URL is to this instance, before anything is sent, from its one parse: the app
/// asks this first, so only a callback of a sign-in it started (and still waits for) finishes
/// without asking; `handleRedirect(_:sessionKey:onOAuthSuccess:)` finishes it as found.
public struct TurnkeyIncomingCallback: OfferedRedirect, Equatable, CustomStringConvertible {
    /// The callback's `state` (nil when missing or unusable: such a callback is always refused).
    public let state: String?
    /// The provider reported a failure (`error=`); nothing to exchange.
    public let isError: Bool
    /// The provider of the sign-in its `state` names, when this instance knows that sign-in (started
    /// here, found by `pendingSignIns()`, or just finished). nil: no record here can finish it.
    public let provider: TurnkeyProvider?
    /// Awaited: this process started the sign-in and it still waits. Repeated: it finished here and
    /// handling it again replays. Earlier run: a record another process left (the CLI's `login-url`,
    /// the app before it quit or crashed); `handleRedirect` can still finish it, but an app asks the
    /// person first, as it no longer knows the sign-in is theirs. Unsolicited: no sign-in here.
    public let standing: RedirectStanding
    /// `offer` handed it to the browser sign-in that awaited it: that sign-in finishes it.
    public internal(set) var isTaken = false
    /// What the callback carries (its token or code stays inside: never printed, never public).
    let callback: Callback?

    /// A callback that carries nothing to exchange (for tests and fakes); `incomingRedirect` makes the real one.
    public init(state: String?, isError: Bool, provider: TurnkeyProvider? = nil, standing: RedirectStanding = .unsolicited) {
        self.init(state: state, isError: isError, provider: provider, standing: standing, callback: nil)
    }

    init(state: String?, isError: Bool, provider: TurnkeyProvider?, standing: RedirectStanding, callback: Callback?) {
        self.state = state
        self.isError = isError
        self.provider = provider
        self.standing = standing
        self.callback = callback
    }

    /// Equal when they say the same of a callback (what it carries is not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.state == rhs.state && lhs.isError == rhs.isError && lhs.provider == rhs.provider && lhs.standing == rhs.standing
            && lhs.isTaken == rhs.isTaken
    }

    /// The provider, standing and whether it is an error; never the token or code.
    public var description: String {
        "TurnkeyIncomingCallback(provider: \(provider?.rawValue ?? "unknown"), standing: \(standing), error: \(isError))"
    }
}

/// A sign-in started here that waits for its callback (no secret: the verifier and key stay stored).
public struct TurnkeyPendingSignIn: Sendable, Equatable {
    /// The sign-in's `state`, which its callback carries.
    public let state: String
    /// The provider the sign-in is with.
    public let provider: TurnkeyProvider
}

extension TurnkeyAuth: BrowserSignInCore {
    /// The browser sign-in `handle*OAuth` runs, waiting for its callback (nil when none runs).
    package var browserSignIn: BrowserSignInSession<TurnkeyIncomingCallback>? { browserSignIns.session }

    /// The authorize page the running `handle*OAuth` opened, or nil when none runs.
    public var browserSignInPage: URL? { browserSignIns.session?.authorizeURL }

    /// Ends the running browser sign-in: it throws `TurnkeySignInError.closed`.
    public func cancelBrowserSignIn() { browserSignIns.session?.close() }

    /// The one call for a URL the desktop delivers: `incomingCallback`, and when it is the callback
    /// of the running browser sign-in, that sign-in takes it (`isTaken`) and finishes it itself.
    public func offer(_ url: String) -> TurnkeyIncomingCallback? {
        guard var incoming = incomingCallback(url) else { return nil }
        if incoming.standing == .awaited, let state = incoming.state,
            let running = browserSignInRunning.withLock({ $0 }), running.state == state,
            let session = browserSignIns.session
        {
            incoming.isTaken = session.resume(with: incoming)
        }
        return incoming
    }

    /// nil when `url` is not a Turnkey callback for this app (same rules as `handleRedirect`).
    public func incomingCallback(_ url: String) -> TurnkeyIncomingCallback? {
        guard let callback = callback(in: url) else { return nil }
        let isError = callback.error != nil
        func incoming(_ provider: TurnkeyProvider? = nil, _ standing: RedirectStanding = .unsolicited) -> TurnkeyIncomingCallback {
            TurnkeyIncomingCallback(state: callback.state, isError: isError, provider: provider, standing: standing, callback: callback)
        }
        guard let state = callback.state, let known = knownSignIns.withLock({ $0[state] }) else { return incoming() }
        // A finished sign-in's record is gone; this instance still knows its state and provider.
        if hasFinished(state: state) { return incoming(known.provider, .repeated) }
        return incoming(known.provider, known.isStartedHere ? .awaited : .earlierRun)
    }

    /// Whether handling the callback with `state` again replays a finished result (nothing is sent).
    public func hasFinished(state: String) -> Bool {
        if case .finished? = replay.progress(for: state) { return true }
        return false
    }

    /// The sign-ins started here (by this app or another process on this keyring) that still wait
    /// for their callback and have not expired. Those another process started are remembered, so
    /// `incomingCallback` names their provider (as an earlier run's).
    public func pendingSignIns() async throws -> [TurnkeyPendingSignIn] {
        let pending = try await mutex.withLock {
            let now = self.clock.now()
            return try await self.loadAllPending()
                .filter { !$0.redeemed && !$0.isExpired(at: now) }
                .map { TurnkeyPendingSignIn(state: $0.state, provider: $0.provider) }
        }
        knownSignIns.withLock { known in
            for sign in pending where known[sign.state] == nil {
                known[sign.state] = KnownSignIn(provider: sign.provider, isStartedHere: false)
            }
        }
        return pending
    }

    /// Ends the sign-in with `state` (Cancel, the window closed): its record and key go, so a callback
    /// for it that arrives later is refused with nothing sent. Ending nothing is not an error.
    public func cancelSignIn(state: String) async throws {
        try await mutex.withLock {
            guard let pending = try await self.loadPending(state: state) else { return }
            self.log("the \(pending.provider.rawValue) sign-in was cancelled")
            try await self.endPending(pending)
        }
    }
}
