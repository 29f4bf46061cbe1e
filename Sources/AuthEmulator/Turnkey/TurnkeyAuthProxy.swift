import AuthBase
import Foundation

/// Turnkey's Auth Proxy under `/turnkey/auth-proxy` (contract §6 and §7): every endpoint is a POST
/// naming its config in `X-Auth-Proxy-Config-ID`; answers are the bare wire types, refusals
/// `{"code","message","details"}`.
extension TurnkeyBackend {
    /// The config the request names; 401 when the header is missing or names no config.
    func authProxyConfig(_ request: EmulatorRequest) throws(TurnkeyError) -> TurnkeyConfig.AuthProxyConfig {
        guard let id = request.header(TurnkeyWire.Header.authProxyConfigId), let config = self.config.authProxyConfig(id) else {
            throw .unauthenticated("missing or unknown \(TurnkeyWire.Header.authProxyConfigId) header")
        }
        return config
    }

    func walletKitConfig(_ request: EmulatorRequest) throws(TurnkeyError) -> EmulatorResponse {
        let config = try authProxyConfig(request)
        _ = try request.turnkeyBody(TurnkeyWire.Empty.self)
        return .turnkey(
            TurnkeyWire.WalletKitConfig(
                enabledProviders: config.enabledProviders.map(\.rawValue),
                sessionExpirationSeconds: String(config.sessionExpirationSeconds),
                organizationId: config.organizationId,
                oauthClientIds: Dictionary(uniqueKeysWithValues: config.clients.map { ($0.provider.rawValue, $0.client.clientId) }),
                oauthRedirectUrl: baseURL + TurnkeyWire.EmulatorPath.oauthRedirect))
    }

    /// The sub-organization of the token's user, if there is one: `{"organizationId":…}` or `{}`.
    func account(_ request: EmulatorRequest) throws(TurnkeyError) -> EmulatorResponse {
        let config = try authProxyConfig(request)
        let body = try request.turnkeyBody(TurnkeyWire.AccountRequest.self)
        guard body.filterType == TurnkeyWire.oidcTokenFilter else {
            throw .invalidArgument("filterType must be \(TurnkeyWire.oidcTokenFilter) (the only filter the emulator supports)")
        }
        let token = try verifiedToken(body.filterValue, field: "filterValue")
        let organization = directory.organization(
            parent: config.organizationId, issuer: token.issuer,
            audience: token.audience, subject: token.subject)
        return .turnkey(TurnkeyWire.AccountResponse(organizationId: organization?.organizationId))
    }

    /// Discord's or X's code for an OIDC token Turnkey mints, once the client, redirect URI and PKCE
    /// verifier match what the code was issued for. The code is spent by this call whatever its outcome.
    /// The `nonce` is optional: the token carries it when given, and none otherwise.
    func oauth2Authenticate(_ request: EmulatorRequest) throws(TurnkeyError) -> EmulatorResponse {
        let config = try authProxyConfig(request)
        let body = try request.turnkeyBody(TurnkeyWire.OAuth2AuthenticateRequest.self)
        for (name, value) in [("authCode", body.authCode), ("clientId", body.clientId), ("redirectUri", body.redirectUri)]
        where value.isEmpty {
            throw .invalidArgument("\(name) must not be empty")
        }
        guard PKCECheck.isWellFormed(body.codeVerifier) else {
            throw .invalidArgument("codeVerifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~")
        }
        guard let provider = IdentityProvider(oauth2Provider: body.provider), let client = config.client(provider) else {
            throw .failedPrecondition("\(body.provider.rawValue) is not enabled in Auth Proxy config \(config.id)")
        }
        guard client.allClientIds.contains(body.clientId) else {
            throw .invalidArgument("clientId is not a \(provider.displayName) client ID of Auth Proxy config \(config.id)")
        }
        guard let authorization = identityProviders.oauth2Codes.redeem(body.authCode, provider: provider) else {
            throw .unauthenticated("the authorization code is unknown, expired or already used")
        }
        guard authorization.clientId == body.clientId else {
            throw .unauthenticated("the authorization code was issued to another client ID")
        }
        guard authorization.redirectUri == body.redirectUri else {
            throw .unauthenticated("redirectUri is not the one the authorization code was issued for")
        }
        let challenge = Base64URL.encode(context.libcrypto.sha256(Array(body.codeVerifier.utf8)))
        guard Crypto.equal(Array(challenge.utf8), Array(authorization.codeChallenge.utf8)) else {
            throw .unauthenticated("codeVerifier does not match the code_challenge (S256)")
        }
        var claims: [String: Any] = [
            "iss": context.turnkeyIssuer, "aud": body.clientId,
            "sub": "\(provider.rawValue):\(ProviderAccounts.numericId(provider, email: authorization.email))",
            "iat": now, "exp": now + OIDCTokens.lifetimeSeconds
        ]
        if let nonce = body.nonce, !nonce.isEmpty { claims["nonce"] = nonce }
        if provider.fakePage.sharesEmailWithTurnkey { claims.merge(["email": authorization.email, "email_verified": true]) { $1 } }
        return .turnkey(TurnkeyWire.OAuth2AuthenticateResponse(oidcToken: try sign(claims)))
    }

    /// A sub-organization with one user, registering the primary token's identity and any secondary
    /// audiences (`oidcClaims` with the token's issuer and subject).
    func signup(_ request: EmulatorRequest) throws(TurnkeyError) -> EmulatorResponse {
        let config = try authProxyConfig(request)
        let body = try request.turnkeyBody(TurnkeyWire.SignupRequest.self)
        if let unknown = WalletShape.unknownFields(in: request.body) {
            throw .invalidArgument("unknown field \"\(unknown)\" in the signup_v2 request")
        }
        if let wallet = body.wallet { try WalletShape.check(wallet) }
        guard body.apiKeys.isEmpty else { throw .invalidArgument("apiKeys must be [] (the emulator creates users without API keys)") }
        guard body.authenticators.isEmpty else { throw .invalidArgument("authenticators must be [] (the emulator has no passkeys)") }
        var identities: [(providerName: String, issuer: String, audience: String, subject: String)] = []
        var claimed: [(field: String, claims: TurnkeyWire.OIDCClaims, providerName: String)] = []
        for (index, entry) in body.oauthProviders.enumerated() {
            let field = "oauthProviders[\(index)]"
            guard !entry.providerName.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw .invalidArgument("\(field).providerName must not be empty")
            }
            switch (entry.oidcToken, entry.oidcClaims) {
            case (let token?, nil):
                let verified = try verifiedToken(token, field: "\(field).oidcToken")
                guard
                    context.isGenericOIDCIssuer(verified.issuer)
                        || context.provider(of: verified).flatMap(config.client)?.allClientIds.contains(verified.audience) == true
                else {
                    throw .unauthenticated("\(field).oidcToken: its audience is not a client ID of Auth Proxy config \(config.id)")
                }
                identities.append((entry.providerName, verified.issuer, verified.audience, verified.subject))
            case (nil, let claims?):
                guard !claims.aud.isEmpty, !claims.iss.isEmpty, !claims.sub.isEmpty else {
                    throw .invalidArgument("\(field).oidcClaims needs a non-empty aud, iss and sub")
                }
                claimed.append((field, claims, entry.providerName))
            default:
                throw .invalidArgument("\(field) needs either oidcToken or oidcClaims")
            }
        }
        guard !identities.isEmpty else { throw .invalidArgument("oauthProviders needs an entry with an oidcToken") }
        // Secondary audiences only for an identity this request proved with a token.
        for entry in claimed {
            guard identities.contains(where: { $0.issuer == entry.claims.iss && $0.subject == entry.claims.sub }) else {
                throw .invalidArgument("\(entry.field).oidcClaims must have the iss and sub of an oidcToken in the same request")
            }
            identities.append((entry.providerName, entry.claims.iss, entry.claims.aud, entry.claims.sub))
        }
        var unique: [(providerName: String, issuer: String, audience: String, subject: String)] = []
        for identity in identities
        where !unique.contains(where: { $0.issuer == identity.issuer && $0.audience == identity.audience && $0.subject == identity.subject }
        ) {
            if let holder = directory.organization(
                parent: config.organizationId, issuer: identity.issuer,
                audience: identity.audience, subject: identity.subject)
            {
                throw .alreadyExists(
                    "this OIDC identity (issuer, audience \(identity.audience), subject) already belongs to sub-organization \(holder.organizationId)"
                )
            }
            unique.append(identity)
        }
        let userEmail = body.userEmail.flatMap { $0.isEmpty ? nil : Emails.normalize($0) }
        if let userEmail, !Emails.isPlausible(userEmail) { throw .invalidArgument("userEmail must be an email address") }
        let organizationName = body.organizationName.flatMap { $0.isEmpty ? nil : $0 } ?? "sub-org-\(now)"
        let userName = body.userName.flatMap { $0.isEmpty ? nil : $0 } ?? userEmail ?? "user-\(now)"
        let organization = directory.createSubOrganization(
            name: organizationName, parent: config.organizationId,
            authProxyConfigId: config.id,
            user: .init(
                userName: userName, userEmail: userEmail, userPhoneNumber: body.userPhoneNumber.flatMap { $0.isEmpty ? nil : $0 },
                userTags: body.userTag.flatMap { $0.isEmpty ? nil : [$0] } ?? []),
            identities: unique, wallet: body.wallet, now: now)
        let wallet = organization.wallets.first.map {
            TurnkeyWire.WalletResult(walletId: $0.walletId, addresses: $0.accounts.map(\.address))
        }
        return .turnkey(
            TurnkeyWire.SignupResponse(organizationId: organization.organizationId, userId: organization.user.userId, wallet: wallet))
    }

    /// A session for `publicKey`, once the token is genuine, unexpired, bound to the key and its
    /// (issuer, audience, subject) belongs to a sub-organization.
    func oauthLogin(_ request: EmulatorRequest) throws(TurnkeyError) -> EmulatorResponse {
        let config = try authProxyConfig(request)
        let body = try request.turnkeyBody(TurnkeyWire.OAuthLoginRequest.self)
        try requirePublicKey(body.publicKey, field: "publicKey")
        let token = try verifiedToken(body.oidcToken, field: "oidcToken")
        try requireBound(token, to: body.publicKey)
        guard
            let organization = directory.organization(
                parent: config.organizationId, issuer: token.issuer,
                audience: token.audience, subject: token.subject)
        else {
            let knownAudience =
                context.isGenericOIDCIssuer(token.issuer) || context.provider(of: token).flatMap(config.client)?.clientId == token.audience
            if knownAudience { throw .notFound("no sub-organization has a user with this OIDC identity; sign up first") }
            throw .unauthenticated(
                "the OIDC token's audience is neither a client ID of Auth Proxy config \(config.id) nor registered on a sub-organization")
        }
        if let requested = body.organizationId, !requested.isEmpty, requested != organization.organizationId {
            throw .unauthenticated("the OIDC token's user does not belong to organization \(requested)")
        }
        let session = try startSession(
            publicKey: body.publicKey, organization: organization,
            expirationSeconds: config.sessionExpirationSeconds, invalidateExisting: body.invalidateExisting)
        return .turnkey(TurnkeyWire.OAuthLoginResponse(session: session))
    }

    /// A token is bound to a key when its `nonce` or its `tknonce` is sha256hex(publicKey), as Turnkey
    /// accepts either. A token Turnkey minted itself (Discord, X) needs neither: it was issued for a
    /// code only the PKCE verifier could spend, and `oauth2_authenticate`'s nonce is optional; when it
    /// carries one, that one binds it.
    private func requireBound(_ token: OIDCTokens.Verified, to publicKey: String) throws(TurnkeyError) {
        let nonces = [token.nonce, token.tknonce].compactMap { $0 }
        if nonces.isEmpty, token.issuer == context.turnkeyIssuer { return }
        guard !nonces.isEmpty else { throw .unauthenticated("the OIDC token has neither a nonce nor a tknonce") }
        let expected = Hex.encode(context.libcrypto.sha256(Array(publicKey.utf8)))
        guard nonces.contains(expected) else {
            throw .unauthenticated("neither the OIDC token's nonce nor its tknonce is the SHA-256 of publicKey (a token for another key)")
        }
    }

    // MARK: shared with the API

    /// Records the session and returns its JWT: exp, public_key (as sent), session_type, user_id, organization_id.
    func startSession(
        publicKey: String, organization: SubOrganization, expirationSeconds: Int,
        invalidateExisting: Bool
    ) throws(TurnkeyError) -> String {
        let expiresAt = now + expirationSeconds
        let jwt = try sign([
            "exp": expiresAt, "public_key": publicKey, "session_type": EmulatedTurnkeySession.readWrite,
            "user_id": organization.user.userId, "organization_id": organization.organizationId
        ])
        directory.startSession(
            publicKey: publicKey, organizationId: organization.organizationId, userId: organization.user.userId,
            invalidateExisting: invalidateExisting, now: now, expiresAt: expiresAt)
        return jwt
    }

    /// A compressed P-256 public key in lower-case hex (66 characters) that is a point on the curve.
    func requirePublicKey(_ hex: String, field: String) throws(TurnkeyError) {
        guard hex.utf8.count == 66, hex == hex.lowercased(), let bytes = Hex.decode(hex), [0x02, 0x03].contains(bytes[0]),
            (try? context.libcrypto.p256UncompressedPublicKey(bytes)) != nil
        else {
            throw .invalidArgument("\(field) must be a compressed P-256 public key in lower-case hex (66 characters)")
        }
    }

    private func verifiedToken(_ token: String, field: String) throws(TurnkeyError) -> OIDCTokens.Verified {
        guard !token.isEmpty else { throw .invalidArgument("\(field) must not be empty") }
        do {
            return try context.verifyOIDCToken(token)
        } catch {
            throw .unauthenticated("\(field): \(error)")
        }
    }

    private func sign(_ claims: [String: Any]) throws(TurnkeyError) -> String {
        do {
            return try context.tokens.sign(claims, with: .turnkey)
        } catch {
            throw TurnkeyError(status: 500, "the emulator could not sign a token")
        }
    }
}
