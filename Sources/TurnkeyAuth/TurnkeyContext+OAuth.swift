import FoundationEssentials

extension TurnkeyContext {
    /// Launches the Google sign-in in the user's browser, retrieves the OIDC token, and completes
    /// login or signup through the Auth Proxy (the session is stored and becomes the state).
    ///
    /// - Parameters:
    ///   - anchor: The window the sign-in starts from; the browser is opened from it. A window that
    ///     is gone ends the sign-in with `TurnkeySignInError.unavailable`.
    ///   - clientId: Overrides the configured client ID (`webClientId`).
    ///   - secondaryClientIds: Replaces the configured secondary client IDs (even when empty), which
    ///     are registered as further audiences of a new user.
    ///   - sessionKey: Stores the resulting session under this key (default: `default`).
    ///   - additionalState: Extra key-value pairs appended to the OAuth request.
    ///   - onOAuthSuccess: When given, receives the OIDC token and the public key its nonce is bound
    ///     to, and nothing is completed or stored: call `completeOAuth` yourself (within the hour).
    public func handleGoogleOAuth(
        anchor: any PresentationAnchor, clientId: String? = nil, secondaryClientIds: [String]? = nil,
        sessionKey: String? = nil, additionalState: [String: String]? = nil,
        onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)? = nil
    ) async throws {
        try await signIn(
            .google, anchor: anchor, clientId: clientId, secondaryClientIds: secondaryClientIds, sessionKey: sessionKey,
            additionalState: additionalState, onOAuthSuccess: onOAuthSuccess)
    }

    /// Launches the Apple sign-in and completes login or signup, as `handleGoogleOAuth`. Linux has no
    /// native Sign in with Apple, so this is the web flow with the configured `serviceId` as the
    /// audience (what the SDK's `handleAppleWebOauth` does on iOS; no iOS bundle ID is added as a
    /// secondary audience, there being none).
    public func handleAppleOAuth(
        anchor: any PresentationAnchor, clientId: String? = nil, secondaryClientIds: [String]? = nil,
        sessionKey: String? = nil, additionalState: [String: String]? = nil,
        onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)? = nil
    ) async throws {
        try await signIn(
            .apple, anchor: anchor, clientId: clientId, secondaryClientIds: secondaryClientIds, sessionKey: sessionKey,
            additionalState: additionalState, onOAuthSuccess: onOAuthSuccess)
    }

    /// The web-based Apple sign-in, kept for code written against older SDKs; the same as `handleAppleOAuth`.
    @available(*, deprecated, message: "Use handleAppleOAuth(anchor:), which is the web flow on Linux.")
    public func handleAppleWebOauth(
        anchor: any PresentationAnchor, clientId: String? = nil, secondaryClientIds: [String]? = nil,
        sessionKey: String? = nil, additionalState: [String: String]? = nil,
        onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)? = nil
    ) async throws {
        try await handleAppleOAuth(
            anchor: anchor, clientId: clientId, secondaryClientIds: secondaryClientIds, sessionKey: sessionKey,
            additionalState: additionalState, onOAuthSuccess: onOAuthSuccess)
    }

    /// Launches the Discord sign-in (OAuth 2.0 with PKCE), has the Auth Proxy exchange the code for
    /// an OIDC token, and completes login or signup, as `handleGoogleOAuth`. `additionalState` is not
    /// sent (the SDK sends none to Discord).
    public func handleDiscordOAuth(
        anchor: any PresentationAnchor, clientId: String? = nil, secondaryClientIds: [String]? = nil,
        sessionKey: String? = nil, additionalState: [String: String]? = nil,
        onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)? = nil
    ) async throws {
        try await signIn(
            .discord, anchor: anchor, clientId: clientId, secondaryClientIds: secondaryClientIds, sessionKey: sessionKey,
            additionalState: additionalState, onOAuthSuccess: onOAuthSuccess)
    }

    /// Launches the X sign-in (OAuth 2.0 with PKCE), as `handleDiscordOAuth`. The provider name at
    /// signup and in `OAuthSuccess` is `twitter`.
    public func handleXOauth(
        anchor: any PresentationAnchor, clientId: String? = nil, secondaryClientIds: [String]? = nil,
        sessionKey: String? = nil, additionalState: [String: String]? = nil,
        onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)? = nil
    ) async throws {
        try await signIn(
            .x, anchor: anchor, clientId: clientId, secondaryClientIds: secondaryClientIds, sessionKey: sessionKey,
            additionalState: additionalState, onOAuthSuccess: onOAuthSuccess)
    }

    /// Hands a URL the desktop opened the app with to the running sign-in, which takes its own
    /// callback (`<appScheme>://?…` with its `state`); nil when the URL is not a Turnkey callback for
    /// this app. Call it from the app's `open` handler.
    @discardableResult
    public func offer(_ url: String) -> TurnkeyIncomingCallback? { auth?.offer(url) }

    private func signIn(
        _ provider: TurnkeyProvider, anchor: any PresentationAnchor, clientId: String?, secondaryClientIds: [String]?,
        sessionKey: String?, additionalState: [String: String]?, onOAuthSuccess: (@Sendable (OAuthSuccess) -> Void)?
    ) async throws {
        let auth = try await core()
        let result = try await auth.handleOAuth(
            for: provider, anchor: anchor, clientId: clientId, secondaryClientIds: secondaryClientIds,
            createSubOrgParams: config.auth?.createSuborgParams?.oauth, sessionKey: sessionKey,
            additionalState: additionalState ?? [:], onOAuthSuccess: onOAuthSuccess)
        if case .authenticated(let completed) = result { await adopt(completed.session, refreshLifetime: nil) }
    }

    /// Completes a sign-in with an OIDC token: logs in the user the Auth Proxy knows for it, or signs
    /// a new one up, then stores the session (`result.session`) and makes it the state.
    ///
    /// - Parameters:
    ///   - oidcToken: The OIDC token from the provider; its `nonce` must be the nonce of `publicKey`
    ///     (else `nonceMismatch`, and nothing is sent).
    ///   - publicKey: A key this context created (`createKeyPair()` or a `handle*OAuth` with
    ///     `onOAuthSuccess`); its private key stays in the key store.
    ///   - providerName: The provider's name at signup (default `OpenID Connect Provider <unix time>`).
    ///   - invalidateExisting: Ends the user's other sessions (default `false`).
    ///   - createSubOrgParams: What a new user's sub-organization is created with (default: the
    ///     configuration's `createSuborgParams.oauth`).
    ///   - sessionKey: The key the session is stored under (default: `default`).
    @discardableResult
    public func completeOAuth(
        oidcToken: String, publicKey: String, providerName: String? = nil, invalidateExisting: Bool = false,
        createSubOrgParams: CreateSubOrgParams? = nil, sessionKey: String? = nil
    ) async throws -> CompleteOAuthResult {
        let auth = try await core()
        // As the SDK's completeOAuth: no secondary client IDs (the handlers add those).
        let result = try await auth.completeOAuth(
            oidcToken: oidcToken, publicKey: publicKey, providerName: providerName, invalidateExisting: invalidateExisting,
            sessionKey: sessionKey,
            signup: SignupOptions(
                createSubOrgParams: createSubOrgParams ?? config.auth?.createSuborgParams?.oauth, secondaryClientIds: []))
        await adopt(result.session, refreshLifetime: nil)
        return result
    }

    /// Generates a new P-256 key pair, keeps its private key in the key store, and returns its
    /// compressed public key (lower-case hex). For your own OIDC flow: set the provider's `nonce` to
    /// `nonce(forPublicKey:)` of this key, then pass the token and the key to `completeOAuth`.
    public func createKeyPair() async throws -> String {
        try await core().createKeyPair()
    }

    /// The nonce an OIDC token must carry for `publicKey`: the lower-case hex SHA-256 of the key's hex.
    public func nonce(forPublicKey publicKey: String) async throws -> String {
        try await core().nonce(forPublicKey: publicKey)
    }
}
