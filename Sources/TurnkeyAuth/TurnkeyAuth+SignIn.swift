import FoundationEssentials

extension TurnkeyAuth {
    /// The whole Google sign-in, as the SDK's `handleGoogleOAuth`; see `handleOAuth(for:…)`.
    public func handleGoogleOAuth(
        anchor: (any PresentationAnchor)? = nil, clientId: String? = nil, secondaryClientIds: [String]? = nil,
        sessionKey: String? = nil, additionalState: [String: String] = [:],
        onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)? = nil
    ) async throws -> TurnkeyRedirectResult {
        try await handleOAuth(
            for: .google, anchor: anchor, clientId: clientId, secondaryClientIds: secondaryClientIds,
            sessionKey: sessionKey, additionalState: additionalState, onOAuthSuccess: onOAuthSuccess)
    }

    /// The whole Apple sign-in through the web flow (the SDK's `handleAppleWebOauth`); see `handleOAuth(for:…)`.
    public func handleAppleOAuth(
        anchor: (any PresentationAnchor)? = nil, clientId: String? = nil, secondaryClientIds: [String]? = nil,
        sessionKey: String? = nil, additionalState: [String: String] = [:],
        onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)? = nil
    ) async throws -> TurnkeyRedirectResult {
        try await handleOAuth(
            for: .apple, anchor: anchor, clientId: clientId, secondaryClientIds: secondaryClientIds,
            sessionKey: sessionKey, additionalState: additionalState, onOAuthSuccess: onOAuthSuccess)
    }

    /// The whole Discord sign-in (PKCE); see `handleOAuth(for:…)`.
    public func handleDiscordOAuth(
        anchor: (any PresentationAnchor)? = nil, clientId: String? = nil, secondaryClientIds: [String]? = nil,
        sessionKey: String? = nil, additionalState: [String: String] = [:],
        onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)? = nil
    ) async throws -> TurnkeyRedirectResult {
        try await handleOAuth(
            for: .discord, anchor: anchor, clientId: clientId, secondaryClientIds: secondaryClientIds,
            sessionKey: sessionKey, additionalState: additionalState, onOAuthSuccess: onOAuthSuccess)
    }

    /// The whole X sign-in (PKCE), under the SDK's spelling; see `handleOAuth(for:…)`.
    public func handleXOauth(
        anchor: (any PresentationAnchor)? = nil, clientId: String? = nil, secondaryClientIds: [String]? = nil,
        sessionKey: String? = nil, additionalState: [String: String] = [:],
        onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)? = nil
    ) async throws -> TurnkeyRedirectResult {
        try await handleOAuth(
            for: .x, anchor: anchor, clientId: clientId, secondaryClientIds: secondaryClientIds,
            sessionKey: sessionKey, additionalState: additionalState, onOAuthSuccess: onOAuthSuccess)
    }

    /// The X sign-in under this package's earlier spelling.
    @available(*, deprecated, renamed: "handleXOauth(anchor:clientId:secondaryClientIds:sessionKey:additionalState:onOAuthSuccess:)")
    public func handleXOAuth(
        clientId: String? = nil, sessionKey: String? = nil, additionalState: [String: String] = [:],
        onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)? = nil
    ) async throws -> TurnkeyRedirectResult {
        try await handleXOauth(
            clientId: clientId, sessionKey: sessionKey, additionalState: additionalState, onOAuthSuccess: onOAuthSuccess)
    }

    /// A whole browser sign-in: starts it (`loginURL`), opens the authorize page in the user's
    /// browser, waits for the callback carrying this sign-in's `state` (the app hands
    /// `browserSignIn` each URL; it takes only that one), and finishes it through `handleRedirect`.
    /// With `onOAuthSuccess` the token is handed over and nothing is stored. `additionalState` rides
    /// on Google's and Apple's origin page only, as in the SDK (Discord and X forward none).
    ///
    /// The browser is opened from `anchor`'s window (`BrowserLauncher.open(_:from:)`); an anchor whose
    /// window is gone ends the sign-in before anything starts (`.unavailable`, as the SDK's web session
    /// fails without a presentation anchor). At signup, `secondaryClientIds` (nil: the configuration's
    /// for the provider; `[]`: none) are registered as further audiences of the user, and
    /// `createSubOrgParams` shapes the sub-organization (see `completeOAuth`).
    ///
    /// Needs a browser launcher (else `TurnkeySignInError.unavailable`); one at a time
    /// (`.signInInProgress`); cancelling the calling task, or closing `browserSignIn` (Cancel, a
    /// sign-out of `sessionKey`), ends the sign-in (`.closed`): its record and key go.
    public func handleOAuth(
        for provider: TurnkeyProvider, anchor: (any PresentationAnchor)? = nil, clientId: String? = nil,
        secondaryClientIds: [String]? = nil, createSubOrgParams: CreateSubOrgParams? = nil,
        sessionKey: String? = nil, additionalState: [String: String] = [:],
        onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)? = nil
    ) async throws -> TurnkeyRedirectResult {
        guard let browser else {
            log("sign-in unavailable: no browser launcher was given")
            throw TurnkeySignInError.unavailable
        }
        if let anchor, !anchor.isAvailable {
            log("sign-in unavailable: the window it was started from is gone")
            throw TurnkeySignInError.unavailable
        }
        guard browserSignIns.reserve() else { throw TurnkeySignInError.signInInProgress }
        defer {
            browserSignIns.release()
            browserSignInRunning.withLock { $0 = nil }
        }

        // A taken session key is reported before the user goes through the provider for nothing.
        let key = try resolvedSessionKey(sessionKey)
        if onOAuthSuccess == nil { try await mutex.withLock { try await self.requireFreeSessionKey(key) } }

        let login = try await loginURL(
            for: provider, clientId: clientId,
            additionalState: provider.usesPKCE ? [:] : additionalState)
        // Open before the browser does, so a fast callback is not missed.
        let session = BrowserSignInSession<TurnkeyIncomingCallback>(authorizeURL: login.authorizeUrl)
        browserSignInRunning.withLock { $0 = (login.state, key) }
        browserSignIns.open(session)
        guard !Task.isCancelled else { throw await abandon(login, .closed) }
        do {
            log("opening the \(provider.rawValue) sign-in page in the browser")
            try await browser.open(login.authorizeUrl, from: anchor)
        } catch {
            log("sign-in unavailable: the browser could not be opened")
            throw await abandon(login, .unavailable)
        }

        // `offer` handed over this sign-in's callback, parsed: it is finished as found.
        let incoming: TurnkeyIncomingCallback
        do {
            incoming = try await session.redirect()
        } catch {
            log("sign-in cancelled before the callback arrived")
            throw await abandon(login, .closed)
        }
        do {
            let signup = SignupOptions(createSubOrgParams: createSubOrgParams, secondaryClientIds: secondaryClientIds)
            let result = try await handleRedirect(incoming, sessionKey: key, signup: signup, onOAuthSuccess: onOAuthSuccess)
            log("\(provider.rawValue) sign-in finished")
            return result
        } catch is CancellationError {
            throw await abandon(login, .closed)
        }
    }

    /// A sign-out of `sessionKey` ends the browser sign-in that would store a session under it.
    func closeBrowserSignIn(storingUnder sessionKey: String) {
        guard browserSignInRunning.withLock({ $0?.sessionKey == sessionKey }) else { return }
        browserSignIns.session?.close()
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
}
