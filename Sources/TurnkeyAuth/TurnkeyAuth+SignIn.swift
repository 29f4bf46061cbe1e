import FoundationEssentials

extension TurnkeyAuth {
    /// The whole Google sign-in, as the SDK's `handleGoogleOAuth`: starts it (`loginURL`), opens the
    /// origin page in the user's browser, waits for the callback carrying this sign-in's `state`
    /// from the injected `RedirectSource` (other URLs are left alone), and finishes it through
    /// `handleRedirect`. With `onOAuthSuccess` the token is handed over and nothing is stored.
    ///
    /// Needs a browser launcher and a redirect source (else `TurnkeySignInError.unavailable`); one
    /// at a time (`.signInInProgress`); cancelling the calling task ends the sign-in (`.closed`).
    public func handleGoogleOAuth(clientId: String? = nil, sessionKey: String? = nil, additionalState: [String: String] = [:],
                                  onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)? = nil) async throws -> TurnkeyRedirectResult {
        try await signIn(.google, clientId: clientId, sessionKey: sessionKey, additionalState: additionalState, onOAuthSuccess: onOAuthSuccess)
    }

    /// The whole Apple sign-in through the web flow (the SDK's `handleAppleWebOauth`); see `handleGoogleOAuth`.
    public func handleAppleOAuth(clientId: String? = nil, sessionKey: String? = nil, additionalState: [String: String] = [:],
                                 onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)? = nil) async throws -> TurnkeyRedirectResult {
        try await signIn(.apple, clientId: clientId, sessionKey: sessionKey, additionalState: additionalState, onOAuthSuccess: onOAuthSuccess)
    }

    /// The whole Discord sign-in (PKCE); see `handleGoogleOAuth`. `additionalState` is not sent, as in
    /// the SDK: Discord's authorize endpoint forwards none.
    public func handleDiscordOAuth(clientId: String? = nil, sessionKey: String? = nil, additionalState: [String: String] = [:],
                                   onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)? = nil) async throws -> TurnkeyRedirectResult {
        try await signIn(.discord, clientId: clientId, sessionKey: sessionKey, additionalState: [:], onOAuthSuccess: onOAuthSuccess)
    }

    /// The whole X sign-in (PKCE); see `handleDiscordOAuth`.
    public func handleXOAuth(clientId: String? = nil, sessionKey: String? = nil, additionalState: [String: String] = [:],
                             onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)? = nil) async throws -> TurnkeyRedirectResult {
        try await signIn(.x, clientId: clientId, sessionKey: sessionKey, additionalState: [:], onOAuthSuccess: onOAuthSuccess)
    }

    private func signIn(_ provider: TurnkeyProvider, clientId: String?, sessionKey: String?, additionalState: [String: String],
                        onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)?) async throws -> TurnkeyRedirectResult {
        guard let browser, let redirects else {
            log("sign-in unavailable: no browser launcher or redirect source was given")
            throw TurnkeySignInError.unavailable
        }
        try beginSignIn()
        defer { endSignIn() }

        // A taken session key is reported before the user goes through the provider for nothing.
        let key = try resolvedSessionKey(sessionKey)
        if onOAuthSuccess == nil { try await mutex.withLock { try await self.requireFreeSessionKey(key) } }

        let login = try await loginURL(for: provider, clientId: clientId, additionalState: additionalState)
        // Listen before the browser opens, so a fast callback is not missed.
        let stream = redirects.redirects()
        guard !Task.isCancelled else { throw await abandon(login, .closed) }
        do {
            log("opening the \(provider.rawValue) sign-in page in the browser")
            try await browser.open(login.authorizeUrl)
        } catch {
            log("sign-in unavailable: the browser could not be opened")
            throw await abandon(login, .unavailable)
        }

        // The stream ends (nil) when the task is cancelled.
        for await url in stream {
            guard !Task.isCancelled else { break }
            guard callback(in: url)?.state == login.state else {
                log("a URL that is not this sign-in's callback arrived; still waiting")
                continue
            }
            do {
                if let result = try await handleRedirect(url, sessionKey: key, onOAuthSuccess: onOAuthSuccess) {
                    log("\(provider.rawValue) sign-in finished")
                    return result
                }
            } catch is CancellationError {
                break
            }
        }
        log("sign-in cancelled before the callback arrived")
        throw await abandon(login, .closed)
    }

    /// Ends a sign-in that will never get its callback: its pending record and key go.
    private func abandon(_ login: TurnkeyLoginURL, _ error: TurnkeySignInError) async -> TurnkeySignInError {
        await bestEffort("end the abandoned sign-in") {
            try await self.mutex.withLock {
                if let pending = try await self.loadPending(state: login.state) { try await self.endPending(pending) }
            }
        }
        return error
    }

    private func beginSignIn() throws {
        try signInRunning.withLock { running in
            guard !running else { throw TurnkeySignInError.signInInProgress }
            running = true
        }
    }

    private func endSignIn() {
        signInRunning.withLock { $0 = false }
    }
}
