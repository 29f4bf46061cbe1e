import AuthBase
import FoundationEssentials

/// What an incoming URL is to this instance, before anything is sent, from its one parse: the app
/// asks this first and exchanges only what a person started (or confirmed), handing this value to
/// `handleRedirect(_:)` so the URL is never parsed again.
public struct IncomingRedirect: OfferedRedirect, Equatable, CustomStringConvertible {
    /// Google, Apple or the email link; nil for an `error=` redirect, which names no method.
    public let method: AuthMethod?
    /// Who asked for it: a live pending sign-in of this process (awaited), this process just
    /// exchanged it (repeated), a sign-in an earlier run was waiting for when it ended (quit,
    /// crashed, killed), or nobody. Only this process's memory makes it awaited or repeated.
    public let standing: RedirectStanding
    /// For an email link this instance or an earlier run sent: the address it went to.
    public let email: String?
    /// `offer` handed it to the browser sign-in that awaited it: that sign-in finishes it.
    public internal(set) var isTaken = false
    /// What it carries (the grant stays inside: never printed, never public).
    let content: RedirectContent

    /// The redirect reports a failed sign-in (`error=`); it carries nothing to exchange.
    public var isError: Bool { if case .failure = content { true } else { false } }

    /// The method, standing and whether it is an error; never the grant.
    public var description: String {
        "IncomingRedirect(method: \(method.map(\.rawValue) ?? "none"), standing: \(standing), error: \(isError))"
    }
}

extension PortalAuth: BrowserSignInCore {
    /// The browser sign-in `signInWith*` runs, waiting for its redirect (nil when none runs).
    package var browserSignIn: BrowserSignInSession<IncomingRedirect>? { browserSignIns.session }

    /// The authorize page the running `signInWith*` opened, or nil when none runs.
    public var browserSignInPage: URL? { browserSignIns.session?.authorizeURL }

    /// Ends the running browser sign-in (it throws `PortalAuthSignInError.closed`): `cancelPendingSignIn()`.
    public func cancelBrowserSignIn() { cancelPendingSignIn() }

    /// The one call for a URL the desktop delivers: `incomingRedirect`, and when the running browser
    /// sign-in awaits it, that sign-in takes it (`isTaken`) and finishes it itself — also a grant
    /// already exchanged, which it then replays.
    public func offer(_ url: String) -> IncomingRedirect? {
        guard var incoming = incomingRedirect(url) else { return nil }
        let forTheRunningSignIn =
            switch incoming.standing {
            case .awaited: true
            case .repeated: incoming.content.route.map { livePendingSignIn()?.accepts($0) == true } ?? false
            case .earlierRun, .unsolicited: false
            }
        if forTheRunningSignIn, let session = browserSignIns.session {
            incoming.isTaken = session.resume(with: incoming)
        }
        return incoming
    }
}

extension PortalAuth {
    /// nil when `url` is not a redirect for this instance (same rules as `handleRedirect`); otherwise
    /// which sign-in it finishes and whether this instance asked for it. No network, nothing spent.
    public func incomingRedirect(_ url: String) -> IncomingRedirect? {
        guard let content = parseRedirect(url) else { return nil }
        let pending = livePendingSignIn()
        guard let route = content.route else {
            // A failure report: awaited only while a provider sign-in waits for its redirect.
            let waitingForProvider = if case .oauth? = pending?.method { true } else { false }
            return IncomingRedirect(method: nil, standing: waitingForProvider ? .awaited : .unsolicited, email: nil, content: content)
        }
        let isRepeat = if case .grant(let token, _) = content { replaySlot.grant(for: token) != nil } else { false }
        let awaited = pending?.accepts(route) == true
        let earlier = awaited || isRepeat ? nil : earlierPendingSignIn.flatMap { $0.isLive(at: now()) && $0.accepts(route) ? $0 : nil }
        var email: String?
        if case .magicLink(let address)? = (awaited || isRepeat ? pending : earlier)?.method, route == .magicLink { email = address }
        let standing: RedirectStanding = isRepeat ? .repeated : awaited ? .awaited : earlier != nil ? .earlierRun : .unsolicited
        return IncomingRedirect(method: route.method, standing: standing, email: email, content: content)
    }

    /// The sign-in this instance is waiting for, if it has not expired.
    public var pendingSignIn: PortalPendingSignIn? { livePendingSignIn() }

    /// Ends the pending sign-in (Cancel, Escape, the window closed): a running `signInWith*` ends
    /// with `.closed`, and a redirect for it that arrives later is unsolicited.
    public func cancelPendingSignIn() {
        browserSignIns.session?.close()
        endPendingSignIn(nil)
        log("the pending sign-in was cancelled")
    }

    // MARK: - Bookkeeping

    func beginPendingSignIn(_ method: PortalPendingSignIn.Method) -> UUID {
        let record = PortalPendingSignIn(method: method, authEnvironmentId: authEnvironmentId, startedAt: now())
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

    func livePendingSignIn() -> PortalPendingSignIn? {
        let current = now()
        return pendingState.withLock { state in
            guard let record = state, record.isLive(at: current) else { return nil }
            return record
        }
    }
}
