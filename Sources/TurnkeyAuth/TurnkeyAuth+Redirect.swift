import FoundationEssentials

extension TurnkeyAuth {
    /// Longer URLs are not callbacks (UTF-16 code units, as PortalAuth counts).
    static let maxRedirectLength = 8192
    /// An `error=` value is cut to this many characters before it reaches an error.
    static let maxErrorLength = 100

    /// Finishes a sign-in from the URL the desktop handed the app; see `handleRedirect(_:sessionKey:onOAuthSuccess:)`.
    public func handleRedirect(
        _ url: URL, sessionKey: String? = nil,
        onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)? = nil
    ) async throws -> TurnkeyRedirectResult? {
        try await handleRedirect(url.absoluteString, sessionKey: sessionKey, onOAuthSuccess: onOAuthSuccess)
    }

    /// Finishes a sign-in from a callback, or returns nil when the URL is not a Turnkey callback for
    /// this app (Portal's `…://auth/callback`, another app's URL), so other handlers can try it.
    ///
    /// A callback targets `<appScheme>://` and carries `id_token` (Google, Apple), `code` (Discord,
    /// X) or `error`. Its `state` must match a pending sign-in started here within the hour, else
    /// `unknownState` and nothing is sent. An `error=` ends that sign-in with `providerError`. An
    /// `id_token` must carry the nonce of the sign-in's key; a code is exchanged once, with the PKCE
    /// verifier. Then `completeOAuth` stores the session under `sessionKey`, unless `onOAuthSuccess`
    /// is given: it then receives the token and public key, nothing is stored, and the key waits for
    /// `completeOAuth`. The same callback delivered again replays its first result.
    public func handleRedirect(
        _ url: String, sessionKey: String? = nil,
        onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)? = nil
    ) async throws -> TurnkeyRedirectResult? {
        guard let callback = callback(in: url) else { return nil }
        return try await handle(callback, sessionKey: sessionKey, onOAuthSuccess: onOAuthSuccess)
    }

    /// Finishes a sign-in from a callback `offer` or `incomingCallback` already parsed: what it
    /// carries is used as found, never parsed again; otherwise as `handleRedirect(_:sessionKey:onOAuthSuccess:)`.
    public func handleRedirect(
        _ incoming: TurnkeyIncomingCallback, sessionKey: String? = nil,
        onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)? = nil
    ) async throws -> TurnkeyRedirectResult {
        try await handleRedirect(incoming, sessionKey: sessionKey, signup: SignupOptions(), onOAuthSuccess: onOAuthSuccess)
    }

    /// As the public one, with what a signup registers.
    func handleRedirect(
        _ incoming: TurnkeyIncomingCallback, sessionKey: String?, signup: SignupOptions,
        onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)?
    ) async throws -> TurnkeyRedirectResult {
        guard let callback = incoming.callback else {
            log("refused a callback without a usable state")
            throw TurnkeyAuthError.unknownState
        }
        return try await handle(callback, sessionKey: sessionKey, signup: signup, onOAuthSuccess: onOAuthSuccess)
    }

    private func handle(
        _ callback: Callback, sessionKey: String?, signup: SignupOptions = SignupOptions(),
        onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)?
    ) async throws -> TurnkeyRedirectResult {
        let key = try resolvedSessionKey(sessionKey)
        guard let state = callback.state else {
            log("refused a callback without a usable state")
            throw TurnkeyAuthError.unknownState
        }
        // A caller already cancelled must not spend a code it no longer wants; past this point the
        // exchange runs to completion.
        try Task.checkCancellation()
        let result = try await shieldedFromCancellation {
            try await self.mutex.withLock {
                try await self.finishCallback(
                    callback, state: state, sessionKey: key, signup: signup, oidcOnly: onOAuthSuccess != nil)
            }
        }
        if case .oidcToken(let success) = result { onOAuthSuccess?(success) }
        return result
    }

    /// The parts of a Turnkey callback for this app, or nil when `url` is not one.
    func callback(in url: String) -> Callback? {
        guard !url.isEmpty, url.utf16.count <= Self.maxRedirectLength,
            config.callbackTargets.contains(where: { URLText(url).sameTarget(as: URLText($0)) })
        else { return nil }
        let callback = Callback(URLText(url.trimmed).queryParameters)
        return callback.idToken != nil || callback.code != nil || callback.error != nil ? callback : nil
    }

    /// Called with the mutex held.
    private func finishCallback(
        _ callback: Callback, state: String, sessionKey: String, signup: SignupOptions,
        oidcOnly: Bool
    ) async throws -> TurnkeyRedirectResult {
        switch replay.progress(for: state) {
        case .finished(let result)?:
            log("replaying an already finished callback")
            return result
        case .oidcToken(let success)?:
            log("continuing a callback whose code was already exchanged")
            return try await finish(
                success, state: state, pending: try await loadPending(state: state),
                sessionKey: sessionKey, signup: signup, oidcOnly: oidcOnly)
        case nil:
            break
        }

        guard let pending = try await loadPending(state: state), !pending.redeemed else {
            log("refused a callback whose state matches no pending sign-in; nothing sent")
            throw TurnkeyAuthError.unknownState
        }
        let provider = pending.provider
        if pending.isExpired(at: clock.now()) {
            await bestEffort("end the expired sign-in") { try await self.endPending(pending) }
            throw TurnkeyAuthError.signInExpired(provider)
        }
        if let error = callback.error {
            log("the \(provider.rawValue) sign-in ended with an error from the provider")
            await bestEffort("end the failed sign-in") { try await self.endPending(pending) }
            let bounded = SecretRedaction.redact(String(error.prefix(Self.maxErrorLength)))
            throw TurnkeyAuthError.providerError(provider, error: String(bounded.prefix(Self.maxErrorLength)))
        }
        if !oidcOnly { try await requireFreeSessionKey(sessionKey) }
        _ = try await loadSigningKey(publicKey: pending.publicKey)

        let success: OAuthSuccess
        if let oauth2Provider = provider.oauth2Provider {
            guard let code = callback.code?.nonBlank, let verifier = pending.codeVerifier else {
                throw TurnkeyAuthError.callbackIncomplete(provider, missing: "code")
            }
            log("exchanging a \(provider.rawValue) code")
            let token = try await authProxy.oauth2Authenticate(
                .init(
                    authCode: code, clientId: pending.clientId, codeVerifier: verifier,
                    nonce: Nonce.of(publicKeyHex: pending.publicKey, crypto: crypto), provider: oauth2Provider,
                    redirectUri: pending.redirectUri))
            success = OAuthSuccess(oidcToken: token, providerName: provider.providerName, publicKey: pending.publicKey)
            // The code is spent: from here a re-delivery continues from the token.
            replay.remember(.oidcToken(success), for: state)
            _ = try claimsBoundToKey(oidcToken: token, publicKey: pending.publicKey)
        } else {
            guard let idToken = callback.idToken?.nonBlank else {
                throw TurnkeyAuthError.callbackIncomplete(provider, missing: "id_token")
            }
            _ = try claimsBoundToKey(oidcToken: idToken, publicKey: pending.publicKey)
            success = OAuthSuccess(oidcToken: idToken, providerName: provider.providerName, publicKey: pending.publicKey)
        }
        return try await finish(
            success, state: state, pending: pending, sessionKey: sessionKey, signup: signup, oidcOnly: oidcOnly)
    }

    /// Hands the token over (`onOAuthSuccess`: the state is spent, the key waits) or completes the
    /// sign-in, and remembers the result for a re-delivery. Called with the mutex held.
    private func finish(
        _ success: OAuthSuccess, state: String, pending: TurnkeyPendingSignInRecord?, sessionKey: String,
        signup: SignupOptions, oidcOnly: Bool
    ) async throws -> TurnkeyRedirectResult {
        let result: TurnkeyRedirectResult
        if oidcOnly {
            if var pending, !pending.redeemed {
                pending.redeemed = true
                try await savePending(pending)
            }
            log("handing the \(success.providerName) token to the caller; nothing stored")
            result = .oidcToken(success)
        } else {
            result = .authenticated(
                try await completeOAuthLocked(
                    oidcToken: success.oidcToken, publicKey: success.publicKey, providerName: success.providerName,
                    invalidateExisting: false, sessionKey: sessionKey, signup: signup))
        }
        replay.remember(.finished(result), for: state)
        return result
    }
}

/// The query of a callback, by the names this flow reads.
struct Callback: Sendable {
    let idToken: String?
    let code: String?
    let error: String?
    /// Nil when missing, blank or too long to be ours.
    let state: String?

    init(_ parameters: [String: String]) {
        idToken = parameters["id_token"]
        code = parameters["code"]
        error = parameters["error"]
        state = parameters["state"].flatMap { $0.isBlank || $0.utf8.count > SignInState.maxLength ? nil : $0 }
    }
}
