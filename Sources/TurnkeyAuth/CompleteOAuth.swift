import FoundationEssentials

extension TurnkeyAuth {
    /// Finishes a sign-in with an OIDC token whose nonce is bound to `publicKey` (a key this
    /// instance's key store holds): the SDK's sequence `account` → `oauth_login` (a known user) or
    /// `signup_v2` + `oauth_login` (a new one, with the provider's secondary client IDs registered as
    /// further audiences), then stores the session under `sessionKey` (default: the configuration's).
    ///
    /// Before anything is sent it checks that the session key is free (`keyAlreadyExists`), that the
    /// key is here (`keyNotFound`) and that the token's `nonce` or `tknonce` is the key's (`nonceMismatch`).
    /// `providerName` names the provider at signup (`google`, `apple`, `discord`, `twitter`; the
    /// SDK's default `OpenID Connect Provider <time>` otherwise). `createSubOrgParams` shapes a new
    /// user's sub-organization (its name, the user's name, email and tag, a wallet with its accounts,
    /// more OAuth providers), as the SDK's `buildSignUpBody` sends it; a login ignores it.
    public func completeOAuth(
        oidcToken: String, publicKey: String, providerName: String? = nil,
        invalidateExisting: Bool = false, createSubOrgParams: CreateSubOrgParams? = nil, sessionKey: String? = nil
    ) async throws -> CompleteOAuthResult {
        try await completeOAuth(
            oidcToken: oidcToken, publicKey: publicKey, providerName: providerName, invalidateExisting: invalidateExisting,
            sessionKey: sessionKey, signup: SignupOptions(createSubOrgParams: createSubOrgParams))
    }

    /// As the public one, with what a signup registers.
    func completeOAuth(
        oidcToken: String, publicKey: String, providerName: String?, invalidateExisting: Bool, sessionKey: String?,
        signup: SignupOptions
    ) async throws -> CompleteOAuthResult {
        guard let token = oidcToken.nonBlank else { throw TurnkeyAuthError.invalidArgument(name: "oidcToken") }
        let key = try Self.publicKey(publicKey)
        let session = try resolvedSessionKey(sessionKey)
        let name = providerName?.nonBlank ?? "OpenID Connect Provider \(Int(clock.now().timeIntervalSince1970))"
        try Task.checkCancellation()
        return try await shieldedFromCancellation {
            try await self.mutex.withLock {
                try await self.completeOAuthLocked(
                    oidcToken: token, publicKey: key, providerName: name,
                    invalidateExisting: invalidateExisting, sessionKey: session, signup: signup)
            }
        }
    }

    /// A compressed P-256 public key in lower-case hex, or `invalidArgument(publicKey)`.
    static func publicKey(_ text: String) throws -> String {
        let lowered = text.trimmed.lowercased()
        guard lowered.utf8.count == 66, lowered.hasPrefix("02") || lowered.hasPrefix("03"), Hex.decode(lowered) != nil else {
            throw TurnkeyAuthError.invalidArgument(name: "publicKey")
        }
        return lowered
    }

    /// Fails unless the session key is free; an expired session there is ended first. Called with the mutex held.
    func requireFreeSessionKey(_ sessionKey: String) async throws {
        guard try await liveSession(sessionKey) == nil else {
            log("session key \(sessionKey) already holds a session")
            throw TurnkeyAuthError.keyAlreadyExists(sessionKey: sessionKey)
        }
    }

    /// The token's claims when it is bound to `publicKey`: its `nonce` or its `tknonce` is the key's nonce.
    /// Turnkey accepts either (`tknonce` for providers whose nonce the app does not choose); its SDKs
    /// check neither, this product checks before anything is sent.
    func claimsBoundToKey(oidcToken: String, publicKey: String) throws -> JWTClaims {
        let claims: JWTClaims
        do {
            claims = try JWTClaims(jwt: oidcToken)
        } catch {
            throw TurnkeyAuthError.invalidOidcToken(detail: "The OIDC token is not a JWT with readable claims.")
        }
        let expected = Nonce.of(publicKeyHex: publicKey, crypto: crypto)
        guard Nonce.claimNames.contains(where: { claims.string($0)?.utf8.elementsEqual(expected.utf8) == true }) else {
            log("neither the OIDC token's nonce nor its tknonce is the nonce of key \(publicKey); nothing sent")
            throw TurnkeyAuthError.nonceMismatch
        }
        return claims
    }

    /// Called with the mutex held.
    func completeOAuthLocked(
        oidcToken: String, publicKey: String, providerName: String, invalidateExisting: Bool,
        sessionKey: String, signup options: SignupOptions
    ) async throws -> CompleteOAuthResult {
        try await requireFreeSessionKey(sessionKey)
        _ = try await loadSigningKey(publicKey: publicKey)
        let claims = try claimsBoundToKey(oidcToken: oidcToken, publicKey: publicKey)

        let jwt: String
        let action: CompleteOAuthResult.Action
        if let organizationId = try await authProxy.account(oidcToken: oidcToken) {
            log("logging in to sub-organization \(organizationId)")
            jwt = try await authProxy.oauthLogin(
                .init(
                    invalidateExisting: invalidateExisting, oidcToken: oidcToken,
                    organizationId: organizationId, publicKey: publicKey))
            action = .login
        } else {
            let signup = signupRequest(oidcToken: oidcToken, claims: claims, providerName: providerName, options: options)
            log("signing up with \(signup.oauthProviders.count - 1) further OAuth providers")
            _ = try await authProxy.signup(signup)
            jwt = try await authProxy.oauthLogin(
                .init(
                    invalidateExisting: invalidateExisting, oidcToken: oidcToken,
                    organizationId: nil, publicKey: publicKey))
            action = .signup
        }

        let session = try await saveSession(jwt, sessionKey: sessionKey, boundTo: publicKey, from: TurnkeyWire.AuthProxyPath.oauthLogin)
        let configId = config.authProxyConfigId
        log("session \(sessionKey) stored after \(action.rawValue) for user \(session.userId)")

        // The key now belongs to the session: its pending records have nothing left to wait for.
        await bestEffort("remove the finished pending sign-in") {
            for pending in try await self.loadAllPending() where pending.publicKey == publicKey {
                try await self.stored(
                    .pendingSignIn, "delete",
                    {
                        try await self.stores.pending.delete(authProxyConfigId: configId, state: pending.state)
                    })
            }
        }
        return CompleteOAuthResult(session: session, action: action)
    }

    /// `signup_v2` as the SDK's `buildSignUpBody` sends it: the parameters' OAuth providers, then the
    /// secondary client IDs as claims (`aud` the ID, `iss` and `sub` from the token; none when either
    /// is missing), then the primary provider with its token. Left out: `sub-org-<unix time>`, and the
    /// user named after `userEmail`, else `user-<unix time>`; the token's own email is not sent.
    func signupRequest(
        oidcToken: String, claims: JWTClaims, providerName: String, options: SignupOptions
    ) -> TurnkeyWire.SignupRequest {
        let now = Int(clock.now().timeIntervalSince1970)
        let params = options.createSubOrgParams ?? CreateSubOrgParams()
        var providers = (params.oauthProviders ?? []).map(\.wire)
        if let iss = claims.string("iss")?.nonBlank, let sub = claims.string("sub")?.nonBlank {
            let configured = TurnkeyProvider(providerName: providerName).flatMap { config.clientIds[$0]?.secondary } ?? []
            for clientId in options.secondaryClientIds ?? configured {
                guard let audience = clientId.nonBlank else { continue }
                providers.append(.init(providerName: providerName, oidcClaims: .init(aud: audience, iss: iss, sub: sub)))
            }
        }
        providers.append(.init(providerName: providerName, oidcToken: oidcToken))
        return TurnkeyWire.SignupRequest(
            oauthProviders: providers, organizationName: params.subOrgName ?? "sub-org-\(now)",
            userName: params.userName ?? params.userEmail ?? "user-\(now)", userEmail: params.userEmail,
            userPhoneNumber: params.userPhoneNumber, userTag: params.userTag,
            verificationToken: params.verificationToken, wallet: params.customWallet?.wire)
    }
}

/// What a signup registers beyond the signing-in identity: the sub-organization parameters, and the
/// secondary client IDs (nil: the configuration's for the provider; `[]`: none, as the SDK's per-call
/// `secondaryClientIds` replaces the configured ones even when empty).
struct SignupOptions: Sendable {
    var createSubOrgParams: CreateSubOrgParams?
    var secondaryClientIds: [String]?
}
