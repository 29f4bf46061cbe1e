import FoundationEssentials

extension PortalAuth {
    /// The whole Google sign-in: fetches a fresh authorize URL, opens it in the user's browser,
    /// waits for the redirect from the injected `RedirectSource`, and completes it through the
    /// `handleRedirect` path (replay, save-before-return and the TOTP step included).
    ///
    /// Needs a custom-scheme `redirectUrl`, a browser launcher and a redirect source (else
    /// `PortalAuthSignInError.unavailable`). One at a time (`.signInInProgress`). Cancelling the
    /// calling task throws `.closed` and the grant is never exchanged. A redirect that is not for
    /// this instance throws `.callbackIncomplete`.
    public func signInWithGoogle() async throws -> AuthResult {
        try await signIn(with: .google)
    }

    /// The whole Apple sign-in; see `signInWithGoogle()`.
    public func signInWithApple() async throws -> AuthResult {
        try await signIn(with: .apple)
    }

    private func signIn(with method: AuthMethod) async throws -> AuthResult {
        let prefersAccountChooser = prefersEphemeralWebBrowserSession
        guard RedirectURL.customScheme(of: redirectUrl) != nil else {
            log("sign-in unavailable: the redirect URL is not a custom scheme")
            throw PortalAuthSignInError.unavailable
        }
        guard let browser, let redirects else {
            log("sign-in unavailable: no browser launcher or redirect source was given")
            throw PortalAuthSignInError.unavailable
        }

        try beginSignIn()
        defer { endSignIn() }

        var authorizeUrl = try await authorizeUrl(for: method).authorizeUrl
        // From here on a redirect for this provider is expected; however this call ends (success,
        // failure, cancellation), the record ends with it, so a late redirect is unsolicited.
        let pendingId = beginPendingSignIn(.oauth(method))
        defer { endPendingSignIn(pendingId) }
        if prefersAccountChooser { authorizeUrl = Self.appendingAccountChooser(to: authorizeUrl) }
        guard let url = URL(string: authorizeUrl) else {
            throw PortalAuthError.malformedResponse(path: PortalWire.Path.oauthUrls, missing: method.rawValue.lowercased())
        }

        // Listen before the browser opens, so a fast redirect is not missed.
        let stream = redirects.redirects()
        guard !Task.isCancelled else { throw PortalAuthSignInError.closed }
        do {
            log("opening the \(method.rawValue) sign-in page in the browser")
            try await browser.open(url)
        } catch {
            log("sign-in unavailable: the browser could not be opened")
            throw PortalAuthSignInError.unavailable
        }

        // The stream ends (nil) when the task is cancelled. URIs that are not this sign-in's redirect
        // (another app's link, a magic link, a mistaken paste) are passed over: the sign-in keeps waiting.
        var iterator = stream.makeAsyncIterator()
        var callback: String?
        while callback == nil {
            guard let next = await iterator.next(), !Task.isCancelled else {
                log("sign-in cancelled before the redirect arrived")
                throw PortalAuthSignInError.closed
            }
            if let incoming = incomingRedirect(next), incoming.isError || incoming.method == method {
                callback = next
            } else {
                log("passed over a URI that is not this sign-in's redirect")
            }
        }
        guard let callback else { throw PortalAuthSignInError.closed }

        let result: AuthResult?
        do {
            result = try await handleRedirect(callback)
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

    private func beginSignIn() throws {
        try signInState.withLock { state in
            guard !state.isSignInRunning else { throw PortalAuthSignInError.signInInProgress }
            state.isSignInRunning = true
        }
    }

    private func endSignIn() {
        signInState.withLock { $0.isSignInRunning = false }
    }

    /// Adds `prompt=select_account` to the query (before any fragment).
    static func appendingAccountChooser(to url: String) -> String {
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        let head = url[..<fragmentStart]
        let separator = head.contains("?") ? (head.hasSuffix("?") || head.hasSuffix("&") ? "" : "&") : "?"
        return head + separator + "prompt=select_account" + url[fragmentStart...]
    }
}
