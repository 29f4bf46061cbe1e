import FoundationEssentials

/// What an incoming URL is to this instance, before anything is sent: the app asks this first and
/// exchanges only what a person started (or confirmed).
public struct IncomingRedirect: Sendable, Equatable {
    /// Google, Apple or the email link; nil for an `error=` redirect, which names no method.
    public let method: AuthMethod?
    /// The redirect reports a failed sign-in (`error=`); it carries nothing to exchange.
    public let isError: Bool
    /// A live pending sign-in of this instance asked for it, or it repeats a grant just exchanged.
    /// Only this process's memory counts: a record an earlier run left behind never does.
    public let isSolicited: Bool
    /// It repeats the grant this instance exchanged last: handling it replays that result, nothing is sent.
    public let isRepeat: Bool
    /// For an email link this instance or an earlier run sent: the address it went to.
    public let email: String?
    /// Unsolicited, but it matches the sign-in an earlier run was waiting for when it ended (quit,
    /// crashed, killed): the app can say so when it asks.
    public let startedBeforeRestart: Bool

    public init(
        method: AuthMethod?, isError: Bool, isSolicited: Bool, isRepeat: Bool, email: String?,
        startedBeforeRestart: Bool = false
    ) {
        self.method = method
        self.isError = isError
        self.isSolicited = isSolicited
        self.isRepeat = isRepeat
        self.email = email
        self.startedBeforeRestart = startedBeforeRestart
    }

    /// Who asked for it: this process (awaited), a sign-in just finished (repeated), an earlier run, nobody.
    public var standing: RedirectStanding {
        isRepeat ? .repeated : isSolicited ? .awaited : startedBeforeRestart ? .earlierRun : .unsolicited
    }
}

extension PortalAuth: BrowserSignInCore {
    /// The browser sign-in `signInWith*` runs, waiting for its redirect (nil when none runs).
    public var browserSignIn: BrowserSignInSession? { browserSignIns.session }

    public func standing(of url: String) -> RedirectStanding? { incomingRedirect(url)?.standing }
}

extension PortalAuth {
    /// nil when `url` is not a redirect for this instance (same rules as `handleRedirect`); otherwise
    /// which sign-in it finishes and whether this instance asked for it. No network, nothing spent.
    public func incomingRedirect(_ url: String) -> IncomingRedirect? {
        guard !url.isEmpty, url.utf16.count <= RedirectURL.maxLength,
            RedirectURL.matches(url, redirectUrl: redirectUrl)
        else { return nil }
        let parameters = RedirectURL.queryParameters(of: url.trimmed)
        let pending = livePendingSignIn()
        if parameters[PortalWire.RedirectQuery.error] != nil {
            let waitingForProvider = if case .oauth? = pending?.method { true } else { false }
            return IncomingRedirect(method: nil, isError: true, isSolicited: waitingForProvider, isRepeat: false, email: nil)
        }
        guard let token = parameters[PortalWire.RedirectQuery.token], !token.isEmpty,
            let route = GrantRoute(parameters)
        else { return nil }
        let isRepeat = replaySlot.grant(for: token) != nil
        let solicited = pending?.accepts(route) == true || isRepeat
        let earlier = solicited ? nil : earlierPendingSignIn.flatMap { $0.isLive(at: now()) && $0.accepts(route) ? $0 : nil }
        var email: String?
        if case .magicLink(let address)? = (solicited ? pending : earlier)?.method, route == .magicLink { email = address }
        return IncomingRedirect(
            method: route.method, isError: false, isSolicited: solicited, isRepeat: isRepeat, email: email,
            startedBeforeRestart: earlier != nil)
    }

    /// The sign-in this instance is waiting for, if it has not expired.
    public var pendingSignIn: PendingSignIn? { livePendingSignIn() }

    /// Ends the pending sign-in (Cancel, Escape, the window closed): a running `signInWith*` ends
    /// with `.closed`, and a redirect for it that arrives later is unsolicited.
    public func cancelPendingSignIn() {
        browserSignIns.session?.close()
        endPendingSignIn(nil)
        log("the pending sign-in was cancelled")
    }

    // MARK: - Bookkeeping

    func beginPendingSignIn(_ method: PendingSignIn.Method) -> UUID {
        let record = PendingSignIn(method: method, authEnvironmentId: authEnvironmentId, startedAt: now())
        pendingState.withLock { $0 = record }
        pendingStore.save(record)
        return record.id
    }

    /// Ends the record with `id` (any record for nil); a newer sign-in's record stays.
    func endPendingSignIn(_ id: UUID?) {
        let ended = pendingState.withLock { state -> Bool in
            guard let current = state, id == nil || current.id == id else { return false }
            state = nil
            return true
        }
        if ended { pendingStore.save(nil) }
    }

    /// Ends the record a just-exchanged redirect answered.
    func endPendingSignIn(answering route: GrantRoute) {
        guard let record = livePendingSignIn(), record.accepts(route) else { return }
        endPendingSignIn(record.id)
    }

    func livePendingSignIn() -> PendingSignIn? {
        let current = now()
        return pendingState.withLock { state in
            guard let record = state, record.isLive(at: current) else { return nil }
            return record
        }
    }
}
