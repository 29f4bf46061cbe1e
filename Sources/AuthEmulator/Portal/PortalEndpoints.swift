import AuthBase
import Foundation

/// Portal's v3 client-auth endpoints (contract §2). Every answer is `{"data":…}` or `{"error":…}`.
extension PortalBackend {
    /// 401 unless the request names a configured environment.
    func requireEnvironment(_ request: EmulatorRequest) -> Result<EnvironmentConfig, ResponseError> {
        guard let id = request.header(PortalWire.Header.environment), let environment = environment(id) else {
            return .failure(ResponseError(401, "Missing or unknown x-portal-auth-environment-id header."))
        }
        return .success(environment)
    }

    func getMethods(_ request: EmulatorRequest) throws -> EmulatorResponse {
        let environment = try requireEnvironment(request).get()
        return .payload(
            PortalWire.Methods(
                allowedAuthMethods: environment.authMethods.map(\.rawValue),
                autoCreateWallet: environment.autoCreateWallet))
    }

    /// The redirect URL `wire` names when the allow-list `entry` admits it: the entry itself, byte for
    /// byte as encoded on the wire; or, for an entry `http://127.0.0.1:0/PATH`, the same URL on any
    /// port 1–65535 (an environment that allows any loopback port, RFC 8252 §7.3).
    static func allowed(_ wire: String, by entry: String) -> String? {
        if JavaURLEncoder.encode(entry) == wire { return entry }
        let anyPort = "http://127.0.0.1:0"
        guard entry.hasPrefix(anyPort) else { return nil }
        let path = String(entry.dropFirst(anyPort.count))
        let head = JavaURLEncoder.encode("http://127.0.0.1:")
        let tail = JavaURLEncoder.encode(path)
        guard wire.hasPrefix(head), wire.hasSuffix(tail), wire.count > head.count + tail.count else { return nil }
        let digits = wire.dropFirst(head.count).dropLast(tail.count)
        guard digits.count <= 5, digits.first != "0", digits.allSatisfy({ ("0"..."9").contains($0) }), let port = Int(digits), port <= 65535
        else { return nil }
        return "http://127.0.0.1:\(port)" + path
    }

    func getOAuthURLs(_ request: EmulatorRequest) throws -> EmulatorResponse {
        let environment = try requireEnvironment(request).get()
        guard let wireRedirect = request.rawQueryValue("redirectUrl"), !wireRedirect.isEmpty else {
            throw ResponseError(400, "The redirectUrl query parameter is required.")
        }
        // Byte for byte as encoded on the wire, like Portal: a differently encoded URL is not on the list.
        guard let redirectUrl = environment.redirectUrls.lazy.compactMap({ Self.allowed(wireRedirect, by: $0) }).first else {
            throw ResponseError(401, "The redirectUrl is not on this environment's allow list.")
        }
        // Portal checks every enabled provider's credentials before it builds any URL.
        if let provider = environment.enabledProviderWithoutCredentials {
            throw ResponseError(
                401, "\(provider.rawValue) is enabled for this environment but has no client credentials; add them in the Portal dashboard."
            )
        }
        let accountAbstracted = try requestedAccountAbstraction(request.query["isAccountAbstracted"], environment)
        let state = oauthStates.create(
            environmentId: environment.id, redirectUrl: redirectUrl,
            isAccountAbstracted: accountAbstracted)
        let callback = JavaURLEncoder.encode(callbackURL(environmentId: environment.id))
        var urls: [SignInProvider: String] = [:]
        for method in environment.authMethods {
            guard let provider = method.provider else { continue }
            urls[provider] =
                "\(baseURL)\(provider.emulatorAuthorizePath)?client_id=emulator-\(provider.rawValue)-\(environment.id)"
                + "&redirect_uri=\(callback)&state=\(state)&\(provider.fakePage.portalAuthorizeParameters)"
        }
        return .payload(PortalWire.OAuthUrls(urls))
    }

    func exchangeOAuthGrant(_ request: EmulatorRequest) throws -> EmulatorResponse {
        try exchangeGrant(request) { if case .oauth = $0 { return true } else { return false } }
    }

    func validateMagicLink(_ request: EmulatorRequest) throws -> EmulatorResponse {
        try exchangeGrant(request) { $0 == .magicLink }
    }

    private func exchangeGrant(_ request: EmulatorRequest, accepts: (Grant.Kind) -> Bool) throws -> EmulatorResponse {
        let environment = try requireEnvironment(request).get()
        guard let token = try request.jsonFields().string("token"), !token.isEmpty else {
            throw ResponseError(400, "The token field is required.")
        }
        guard let grant = grants.redeem(token, environmentId: environment.id, accepts: accepts),
            let user = users.user(environmentId: environment.id, endUserId: grant.endUserId)
        else {
            throw ResponseError(401, "The sign-in token is invalid, expired or already used.")
        }
        // A method switched off after the grant was issued no longer signs anyone in.
        guard environment.authMethods.contains(grant.kind.method) else {
            throw ResponseError(401, "\(grant.kind.method.rawValue) sign-in is no longer enabled for this environment.")
        }
        if user.needsTotp {
            let claims = JwtSigner.Claims(
                endUserId: user.endUserId, authEnvironmentId: environment.id,
                isAccountAbstracted: grant.isAccountAbstracted,
                issuedAt: now, expiresAt: now + JwtSigner.lifetimeSeconds)
            return .payload(
                PortalWire.Grant(
                    endUserId: user.endUserId, userJwt: jwt.sign(claims),
                    totpLink: user.totpEnrolled ? nil : Totp.link(email: user.email, secretBase32: user.totpSecretBase32)))
        }
        let session = sessions.create(for: user, isAccountAbstracted: grant.isAccountAbstracted, now: now)
        return .payload(
            PortalWire.Grant(
                endUserId: user.endUserId, clientId: user.clientId, clientSessionToken: session,
                isAccountAbstracted: grant.isAccountAbstracted))
    }

    func validateTotp(_ request: EmulatorRequest) throws -> EmulatorResponse {
        let environment = try requireEnvironment(request).get()
        guard let token = request.bearerToken, let claims = jwt.verify(token, now: now),
            claims.authEnvironmentId == environment.id,
            let user = users.user(environmentId: environment.id, endUserId: claims.endUserId)
        else {
            throw ResponseError(401, "The user JWT is missing, invalid or expired; sign in again.")
        }
        let body = try request.jsonFields()
        guard let code = body.string("code") else { throw ResponseError(400, "The code field is required.") }
        let throttleKey = environment.id + "\n" + user.endUserId
        guard !totpFailures.isLimited(throttleKey, now: now) else {
            throw ResponseError(429, "Too many wrong codes. Wait a few minutes, then try again.")
        }
        guard let step = Totp.matchingStep(secret: user.totpSecret, code: code, at: now),
            step > (user.lastAcceptedTotpStep ?? Int.min)
        else {
            totpFailures.record(throttleKey, now: now)
            throw ResponseError(401, "The code is wrong or was already used. Enter the current code from your authenticator app.")
        }
        user.lastAcceptedTotpStep = step
        user.totpEnrolled = true
        totpFailures.clear(throttleKey)
        let session = sessions.create(for: user, isAccountAbstracted: claims.isAccountAbstracted, now: now)
        return .payload(
            PortalWire.TotpValidation(
                clientId: user.clientId, clientSessionToken: session,
                isAccountAbstracted: claims.isAccountAbstracted))
    }

    func sendMagicLink(_ request: EmulatorRequest) throws -> EmulatorResponse {
        let environment = try requireEnvironment(request).get()
        guard environment.magicLinksEnabled else {
            throw ResponseError(401, "Magic links are not enabled for this environment.")
        }
        let body = try request.jsonFields()
        guard let rawEmail = body.string("email"), Emails.isPlausible(Emails.normalize(rawEmail)) else {
            throw ResponseError(400, "The email field must be an email address.")
        }
        guard let redirectUrl = body.string("redirectUrl"), environment.redirectUrls.contains(redirectUrl) else {
            throw ResponseError(401, "The redirectUrl is not on this environment's allow list.")
        }
        for field in ["fromEmail", "templateId"] where body.string(field)?.isEmpty ?? true {
            throw ResponseError(400, "The \(field) field is required.")
        }
        if body.has("isAccountAbstracted"), body.bool("isAccountAbstracted") == nil {
            throw ResponseError(400, "The isAccountAbstracted field must be true or false.")
        }
        let accountAbstracted = try requestedAccountAbstraction(body.bool("isAccountAbstracted") == true ? "true" : nil, environment)
        let email = Emails.normalize(rawEmail)
        guard magicLinkLimit.allow(environment.id + "\n" + email, now: now) else {
            throw ResponseError(429, "Too many magic links for this address. Wait a minute, then try again.")
        }
        let user = users.findOrCreate(environmentId: environment.id, email: email)
        let grant = grants.issue(
            environmentId: environment.id, endUserId: user.endUserId, kind: .magicLink,
            isAccountAbstracted: accountAbstracted)
        let link = FormEncoding.appendingQuery(
            redirectUrl,
            [
                (PortalWire.RedirectQuery.token, grant),
                (PortalWire.RedirectQuery.authMethod, AuthMethod.emailMagicLink.rawValue)
            ])
        outbox.send(.init(email: email, link: link, sentAt: context.clock.now))
        return .payload(PortalWire.MagicLinkSent(sent: true))
    }

    func getClient(_ request: EmulatorRequest) throws -> EmulatorResponse {
        let environment = try requireEnvironment(request).get()
        guard let token = request.bearerToken, let session = sessions.session(token),
            session.environmentId == environment.id
        else {
            throw ResponseError(401, "The session is unknown or was revoked; sign in again.")
        }
        let wallets = users.user(environmentId: environment.id, endUserId: session.endUserId).flatMap(ClientWallets.of)
        return .payload(
            PortalWire.Client(
                id: session.clientId, endUserId: session.endUserId,
                isAccountAbstracted: session.isAccountAbstracted,
                createdAt: Administration.isoDate(Date(timeIntervalSince1970: TimeInterval(session.createdAt))),
                custodian: PortalWire.Named(
                    id: Identifiers.uuid(fromHex: Crypto.sha256Hex("custodian|\(environment.id)")), name: environment.appName),
                environment: PortalWire.Named(id: environment.id, name: environment.name),
                metadata: ClientWallets.metadata(wallets),
                wallets: wallets?.wallets ?? []))
    }

    /// `isAccountAbstracted=true` needs an environment with account abstraction (400 otherwise, as Portal).
    private func requestedAccountAbstraction(_ value: String?, _ environment: EnvironmentConfig) throws -> Bool {
        guard value == "true" else { return false }
        guard environment.accountAbstraction else {
            throw ResponseError(400, "Account abstraction (gas sponsorship) is not enabled for this environment.")
        }
        return true
    }
}
