import FoundationEssentials
import Synchronization

extension PortalAuth {
    /// The window `signInWith*` starts from: the browser is opened for it (the desktop may use it as
    /// the parent of what it shows, and to bring the browser to the front). Call it with your window
    /// before signing in. The anchor names the window without keeping it (a GTK app's anchor holds
    /// its window weakly): once the window is gone, `signInWith*` throws `.unavailable`. A program
    /// without a window passes `WindowlessAnchor()`. Setting another anchor replaces this one.
    public func setAuthPresentationAnchor(_ anchor: any PresentationAnchor) {
        signInState.withLock { $0.anchor = anchor }
    }

    /// The whole Google sign-in: fetches a fresh authorize URL, opens it in the user's browser,
    /// waits for the redirect the app hands `browserSignIn`, and completes it through the
    /// `handleRedirect` path (replay, save-before-return and the TOTP step included).
    ///
    /// Needs a presentation anchor whose window is still there (`setAuthPresentationAnchor(_:)`), a
    /// browser launcher, and either a custom-scheme `redirectUrl`, or a loopback `redirectUrl`
    /// (`http://127.0.0.1:PORT/PATH`; port 0: any free port) with a loopback listener, which binds the
    /// port before anything is sent (`LoopbackListenError.portInUse` when another socket holds it) and
    /// holds it for the authorize URL's lifetime after the sign-in ends, answering a late redirect
    /// without exchanging it; else `PortalAuthSignInError.unavailable`, with nothing sent and nothing
    /// opened. One at a time (`.signInInProgress`). Cancelling the calling task, or closing
    /// `browserSignIn` (`cancelPendingSignIn`, `clearPersistedSession`), throws `.closed` and the
    /// grant is never exchanged. A redirect that is not for this instance throws `.callbackIncomplete`.
    public func signInWithGoogle() async throws -> AuthResult {
        try await signIn(with: .google)
    }

    /// The whole Apple sign-in; see `signInWithGoogle()`.
    public func signInWithApple() async throws -> AuthResult {
        try await signIn(with: .apple)
    }

    /// The whole sign-in with `method`'s provider; see `signInWithGoogle()`. Email links have no
    /// browser sign-in: `.authMethodUnavailable`, nothing sent.
    public func signIn(with method: AuthMethod) async throws -> AuthResult {
        guard method.provider != nil else { throw PortalAuthError.authMethodUnavailable(method) }
        let (prefersAccountChooser, anchor) = signInState.withLock { ($0.prefersEphemeralWebBrowserSession, $0.anchor) }
        guard let anchor, anchor.isAvailable else {
            log("sign-in unavailable: no presentation anchor was set, or its window is gone")
            throw PortalAuthSignInError.unavailable
        }
        let loopbackPort = RedirectURL.loopbackPort(of: redirectUrl)
        guard loopbackPort != nil || RedirectURL.customScheme(of: redirectUrl) != nil else {
            log("sign-in unavailable: the redirect URL is neither a custom scheme nor http://127.0.0.1:PORT")
            throw PortalAuthSignInError.unavailable
        }
        guard let browser, loopbackPort == nil || loopback != nil else {
            log("sign-in unavailable: no browser launcher, or nothing to receive the redirect, was given")
            throw PortalAuthSignInError.unavailable
        }

        guard browserSignIns.reserve() else { throw PortalAuthSignInError.signInInProgress }
        defer { browserSignIns.release() }

        // A loopback redirect is received on a port this process holds: bound before Portal is asked
        // for anything, so a port someone else holds stops the sign-in with nothing sent or opened.
        // Port 0 is any free port: the redirect URL this sign-in sends names the one bound.
        var listener: (any LoopbackRedirectListener)?
        var signInRedirectUrl = redirectUrl
        // The listener's judgement of the request it takes is that redirect's one parse.
        let taken = Mutex<(url: String, content: RedirectContent)?>(nil)
        if let loopbackPort, let loopback {
            let waiting = try await loopback.listen(port: loopbackPort, holdingPortFor: .seconds(PortalPendingSignIn.lifetime)) {
                [self] (url: String) in
                let (verdict, content) = loopbackVerdict(url, for: method)
                if verdict == .take, let content { taken.withLock { $0 = (url, content) } }
                return verdict
            }
            signInRedirectUrl = RedirectURL.withLoopbackPort(waiting.port, of: redirectUrl)
            listener = waiting
            log("listening for the redirect on 127.0.0.1:\(waiting.port)")
        }
        defer { listener?.close() }

        var authorizeUrl = try await authorizeUrl(for: method, redirectUrl: signInRedirectUrl).authorizeUrl
        // From here on a redirect for this provider is expected; however this call ends (success,
        // failure, cancellation), the record ends with it, so a late redirect is unsolicited.
        let pendingId = beginPendingSignIn(.oauth(method))
        defer { endPendingSignIn(pendingId) }
        if prefersAccountChooser { authorizeUrl = Self.appendingAccountChooser(to: authorizeUrl) }
        guard let url = URL(string: authorizeUrl) else {
            throw PortalAuthError.malformedResponse(path: PortalWire.Path.oauthUrls, missing: method.rawValue.lowercased())
        }

        // Open before the browser does, so a fast redirect is not missed. A loopback redirect comes
        // to the listener, never through the app: closing the session ends the listener's wait.
        let session =
            if let listener {
                BrowserSignInSession<IncomingRedirect>(
                    authorizeURL: url, takesRedirectsFromTheDesktop: false, onClose: { listener.close() })
            } else {
                BrowserSignInSession<IncomingRedirect>(authorizeURL: url)
            }
        browserSignIns.open(session)
        guard !Task.isCancelled else { throw PortalAuthSignInError.closed }
        // The window may have closed while Portal was asked: nothing is opened for a window that is gone.
        guard anchor.isAvailable else {
            log("sign-in unavailable: the window it was started from is gone")
            throw PortalAuthSignInError.unavailable
        }
        do {
            log("opening the \(method.rawValue) sign-in page in the browser")
            try await browser.open(url, from: anchor)
        } catch {
            log("sign-in unavailable: the browser could not be opened")
            throw PortalAuthSignInError.unavailable
        }

        let result: AuthResult?
        do {
            if let listener {
                let url = try await loopbackRedirect(from: listener)
                let judged = taken.withLock { $0 }
                guard let content = judged?.url == url ? judged?.content : parseRedirect(url) else {
                    throw PortalAuthSignInError.callbackIncomplete
                }
                result = try await handle(content, fenceTicket: signOutFence.ticket())
            } else {
                // `offer` handed over the redirect it parsed: it is finished as found.
                let incoming: IncomingRedirect
                do {
                    incoming = try await session.redirect()
                } catch {
                    log("sign-in cancelled before the redirect arrived")
                    throw PortalAuthSignInError.closed
                }
                result = try await handleRedirect(incoming)
            }
        } catch is CancellationError {
            log("sign-in cancelled before the grant was exchanged")
            throw PortalAuthSignInError.closed
        }
        guard let result else {
            log("the redirect carried no sign-in result for this instance")
            throw PortalAuthSignInError.callbackIncomplete
        }
        log("\(method.rawValue) sign-in finished")
        return result
    }

    /// Waits for the listener's one request. Cancelling the task, or the pending sign-in's lifetime
    /// passing (its grant would have expired too), ends the wait and throws `.closed`; the listener
    /// keeps the port for late redirects.
    private func loopbackRedirect(from listener: any LoopbackRedirectListener) async throws -> String {
        let deadline = Task {
            try await Task.sleep(nanoseconds: UInt64(PortalPendingSignIn.lifetime) * 1_000_000_000)
            listener.close()
        }
        defer { deadline.cancel() }
        let received = try await withTaskCancellationHandler {
            try await listener.redirect()
        } onCancel: {
            listener.close()
        }
        guard let received, !Task.isCancelled else {
            log("sign-in ended before the redirect arrived; the port is held for late redirects")
            throw PortalAuthSignInError.closed
        }
        return received
    }

    /// A request on the loopback port: taken only when it is this sign-in's redirect (the path of
    /// `redirectUrl`, with a grant for `method` or an `error=`), with what it carries; another path
    /// is not ours at all.
    func loopbackVerdict(_ url: String, for method: AuthMethod) -> (LoopbackRequestVerdict, RedirectContent?) {
        guard !url.isEmpty, url.utf16.count <= RedirectURL.maxLength, RedirectURL.matches(url, redirectUrl: redirectUrl) else {
            return (.notFound, nil)
        }
        guard let content = parseRedirect(url) else { return (.notASignIn, nil) }
        switch content {
        case .failure: return (.take, content)
        case .grant(_, let route): return route == .oauth(method) ? (.take, content) : (.notASignIn, nil)
        }
    }

    /// Adds `prompt=select_account` to the query (before any fragment).
    static func appendingAccountChooser(to url: String) -> String {
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        let head = url[..<fragmentStart]
        let separator = head.contains("?") ? (head.hasSuffix("?") || head.hasSuffix("&") ? "" : "&") : "?"
        return head + separator + "prompt=select_account" + url[fragmentStart...]
    }
}
