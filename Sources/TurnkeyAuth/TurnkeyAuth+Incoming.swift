import FoundationEssentials

/// What an incoming URL is to this instance, before anything is sent: the app asks this first, so
/// only a callback of a sign-in it started (and still waits for) finishes without asking.
public struct TurnkeyIncomingCallback: Sendable, Equatable {
    /// The callback's `state` (nil when missing or unusable: such a callback is always refused).
    public let state: String?
    /// The provider reported a failure (`error=`); nothing to exchange.
    public let isError: Bool
    /// This instance started the sign-in its `state` names, so the running process waits for it. A
    /// record an earlier process left (the CLI's `login-url`, the app before it quit or crashed) can
    /// still be finished with `handleRedirect`, but an app asks the person first: it no longer knows
    /// that the sign-in is theirs.
    public let isStartedHere: Bool

    public init(state: String?, isError: Bool, isStartedHere: Bool = false) {
        self.state = state
        self.isError = isError
        self.isStartedHere = isStartedHere
    }
}

/// A sign-in started here that waits for its callback (no secret: the verifier and key stay stored).
public struct TurnkeyPendingSignIn: Sendable, Equatable {
    public let state: String
    public let provider: TurnkeyProvider
}

extension TurnkeyAuth {
    /// nil when `url` is not a Turnkey callback for this app (same rules as `handleRedirect`).
    public func incomingCallback(_ url: String) -> TurnkeyIncomingCallback? {
        guard let callback = callback(in: url) else { return nil }
        let startedHere = callback.state.map { state in self.startedHere.withLock { $0.contains(state) } } ?? false
        return TurnkeyIncomingCallback(state: callback.state, isError: callback.error != nil, isStartedHere: startedHere)
    }

    /// Whether handling the callback with `state` again replays a finished result (nothing is sent).
    public func hasFinished(state: String) -> Bool {
        if case .finished? = replay.progress(for: state) { return true }
        return false
    }

    /// The sign-ins started here (by this app or another process on this keyring) that still wait
    /// for their callback and have not expired.
    public func pendingSignIns() async throws -> [TurnkeyPendingSignIn] {
        try await mutex.withLock {
            let now = self.clock.now()
            return try await self.loadAllPending()
                .filter { !$0.redeemed && !$0.isExpired(at: now) }
                .map { TurnkeyPendingSignIn(state: $0.state, provider: $0.provider) }
        }
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
