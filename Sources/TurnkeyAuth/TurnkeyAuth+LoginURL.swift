import FoundationEssentials

extension TurnkeyAuth {
    /// Starts a sign-in for a browser of the caller's choice; finish it with `handleRedirect`.
    ///
    /// Makes a fresh P-256 key (its nonce goes to Google and Apple), an unguessable `state`, and for
    /// Discord and X a PKCE verifier, and keeps them for an hour as a pending sign-in (the private
    /// key and the verifier never leave the stores). The client ID is `clientId`, else the
    /// configuration's primary one, else `wallet_kit_config`'s. `additionalState` pairs ride along
    /// on Google's and Apple's origin page (the SDK's behaviour; Discord and X take none).
    public func loginURL(
        for provider: TurnkeyProvider, clientId: String? = nil,
        additionalState: [String: String] = [:]
    ) async throws -> TurnkeyLoginURL {
        if let clientId, clientId.isBlank { throw TurnkeyAuthError.invalidArgument(name: "clientId") }
        if additionalState.keys.contains(where: { $0.isBlank || AuthorizeURLs.reservedNames.contains($0) }) {
            throw TurnkeyAuthError.invalidArgument(name: "additionalState")
        }
        var enabled = config.enabledProviders
        if enabled == nil { enabled = Self.providers(named: try await walletKitConfig().enabledProviders ?? []) }
        guard enabled?.contains(provider) == true else {
            log("\(provider.rawValue) is not enabled for Auth Proxy config \(config.authProxyConfigId)")
            throw TurnkeyAuthError.providerNotEnabled(provider)
        }
        let resolvedClientId = try await self.clientId(for: provider, override: clientId)
        let redirectUri: String
        if let own = config.redirectUris[provider] {
            redirectUri = own
        } else {
            redirectUri = provider.usesPKCE ? config.appRedirect : try await redirectPage()
        }

        let pair = try newKeyPair()
        let pkce: PKCE?
        let state: String
        do {
            state = try SignInState.make(crypto: crypto)
            pkce = provider.usesPKCE ? try PKCE(crypto: crypto) : nil
        } catch {
            throw TurnkeyAuthError.cryptoFailure(operation: "read random bytes")
        }
        let pending = TurnkeyPendingSignInRecord(
            state: state, provider: provider, publicKey: pair.publicKeyHex, clientId: resolvedClientId,
            redirectUri: redirectUri, codeVerifier: pkce?.verifier,
            createdAt: Int(clock.now().timeIntervalSince1970))
        try await mutex.withLock {
            // The record first: a purge running meanwhile then never finds a key without its record.
            try await self.savePending(pending)
            do {
                try await self.saveKey(pair)
            } catch {
                await self.bestEffort("remove the pending sign-in") { try await self.endPending(pending) }
                throw error
            }
        }
        knownSignIns.withLock { $0[state] = KnownSignIn(provider: provider, isStartedHere: true) }

        let url: URL
        if let pkce, let scope = provider.scope, let authorize = config.authorizeUrls[provider] {
            url = AuthorizeURLs.pkce(
                authorize: authorize, clientId: resolvedClientId, redirectUri: redirectUri,
                challenge: pkce.challenge(crypto: crypto), scope: scope, state: state)
        } else {
            url = AuthorizeURLs.oidc(
                origin: config.oauthOriginUrl, provider: provider, clientId: resolvedClientId,
                redirectUri: redirectUri, nonce: Nonce.of(publicKeyHex: pair.publicKeyHex, crypto: crypto),
                state: state, additionalState: additionalState)
        }
        log("started a \(provider.rawValue) sign-in for key \(pair.publicKeyHex)")
        return TurnkeyLoginURL(authorizeUrl: url, provider: provider, publicKey: pair.publicKeyHex, state: state)
    }

    /// The per-call ID, the configuration's primary ID, then `wallet_kit_config`'s.
    func clientId(for provider: TurnkeyProvider, override: String?) async throws -> String {
        if let override = override?.nonBlank { return override }
        if let configured = config.clientIds[provider]?.primary?.nonBlank { return configured }
        guard let fetched = try await walletKitConfig().oauthClientIds?[provider.rawValue]?.nonBlank else {
            throw TurnkeyAuthError.missingClientId(provider)
        }
        return fetched
    }

    /// Google's and Apple's redirect URI: the configured redirect page, else `wallet_kit_config`'s,
    /// else Turnkey's, with `?scheme=` the app's scheme.
    func redirectPage() async throws -> String {
        if let base = config.redirectBase { return AuthorizeURLs.redirectPage(base, appScheme: config.appScheme) }
        let path = TurnkeyWire.AuthProxyPath.walletKitConfig
        guard let fetched = try await walletKitConfig().oauthRedirectUrl?.nonBlank else {
            return AuthorizeURLs.redirectPage(TurnkeyConfiguration.defaultOAuthRedirectUrl, appScheme: config.appScheme)
        }
        guard case .success = TurnkeyConfiguration.serviceURL(fetched) else {
            throw TurnkeyAuthError.malformedResponse(path: path, missing: "oauthRedirectUrl")
        }
        return AuthorizeURLs.redirectPage(fetched, appScheme: config.appScheme)
    }
}
