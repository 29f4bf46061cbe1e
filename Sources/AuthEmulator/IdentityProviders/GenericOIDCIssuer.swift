import AuthBase
import Foundation

/// An authorization code of the generic OIDC issuer: what the `id_token` it buys will say.
struct GenericOIDCAuthorization: Sendable {
    let clientId: String
    let redirectUri: String
    let nonce: String?
    let codeChallenge: String?
    let email: String
}

/// "Any OIDC provider" under `/idp/oidc`: a plain OpenID Connect issuer (authorization code flow,
/// optional PKCE) for an app that runs its own sign-in and hands the `id_token` to Turnkey's
/// `completeOAuth`. Any client ID is accepted; redirect URIs must be loopback `http` or a custom
/// scheme. The `id_token` carries the `nonce` the authorize request asked for, is signed with the
/// identity providers' key and published at `/idp/oidc/jwks`; the Auth Proxy accepts it like Google's.
extension IdentityProviders {
    static let oidcBase = TurnkeyWire.EmulatorPath.oidcIssuer

    /// The handlers of the issuer's paths, or nil for another path.
    func genericOIDCHandlers(_ path: String) -> [String: (EmulatorRequest) throws -> EmulatorResponse]? {
        switch path {
        case Self.oidcBase + "/.well-known/openid-configuration": ["GET": { _ in self.oidcDiscovery() }]
        case Self.oidcBase + "/authorize": ["GET": { self.showOIDCPage($0.query) }, "POST": { self.submitOIDCPage($0.form) }]
        case Self.oidcBase + "/token": ["POST": { self.oidcToken($0.form) }]
        case Self.oidcBase + "/jwks": ["GET": { _ in self.context.serveJWKS(.identityProviders) }]
        default: nil
        }
    }

    private func oidcDiscovery() -> EmulatorResponse {
        let issuer = context.genericOIDCIssuer
        return .json(
            200,
            [
                "issuer": issuer, "authorization_endpoint": issuer + "/authorize", "token_endpoint": issuer + "/token",
                "jwks_uri": issuer + "/jwks", "response_types_supported": ["code"], "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["ES256"], "scopes_supported": ["openid", "email"],
                "grant_types_supported": ["authorization_code"], "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["none"], "claims_supported": ["iss", "aud", "sub", "email", "nonce"]
            ])
    }

    /// Loopback `http` (RFC 8252 §7.3) or a custom scheme (§7.1): where a desktop app can receive a code.
    private static func isAppRedirect(_ uri: String) -> Bool {
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased() else { return false }
        if scheme == "http" { return components.host.map(Loopback.isLoopbackHost) ?? false }
        return scheme != "https" && components.fragment == nil
    }

    private func oidcRequest(_ fields: [String: String]) -> Result<[(String, String)], PageRefusal> {
        guard let clientId = fields["client_id"], !clientId.isEmpty else {
            return .failure(
                PageRefusal(
                    response: .html(400, Html.errorPage(title: "client_id missing", message: "The sign-in request names no client ID."))))
        }
        guard let redirectUri = fields["redirect_uri"], Self.isAppRedirect(redirectUri) else {
            return .failure(
                PageRefusal(
                    response: .html(
                        400,
                        Html.errorPage(
                            title: "redirect_uri not accepted",
                            message: "This issuer returns only to a loopback http address or an app's own URL scheme."))))
        }
        let state = fields["state"].flatMap { $0.isEmpty ? nil : $0 }
        func refuse(_ error: String, _ description: String) -> PageRefusal {
            PageRefusal(
                response: .redirect(
                    to: FormEncoding.appendingQuery(
                        redirectUri, [("error", error), ("error_description", description)] + (state.map { [("state", $0)] } ?? []))))
        }
        guard fields["response_type"] == "code" else { return .failure(refuse("unsupported_response_type", "response_type must be code")) }
        guard (fields["scope"] ?? "").split(separator: " ").contains("openid") else {
            return .failure(refuse("invalid_scope", "scope must include openid"))
        }
        var kept = [("client_id", clientId), ("redirect_uri", redirectUri), ("response_type", "code")]
        for name in ["scope", "state", "nonce", "code_challenge", "code_challenge_method"] {
            if let value = fields[name], !value.isEmpty { kept.append((name, value)) }
        }
        if let challenge = fields["code_challenge"], !challenge.isEmpty {
            guard PKCECheck.isWellFormed(challenge), fields["code_challenge_method"] == "S256" else {
                return .failure(refuse("invalid_request", "code_challenge must be an S256 challenge"))
            }
        }
        return .success(kept)
    }

    private func showOIDCPage(_ fields: [String: String], error: String? = nil) -> EmulatorResponse {
        let kept: [(String, String)]
        switch oidcRequest(fields) {
        case .success(let fields): kept = fields
        case .failure(let refusal): return refusal.response
        }
        let hidden = kept.map { "<input type=\"hidden\" name=\"\(Html.escape($0.0))\" value=\"\(Html.escape($0.1))\">" }.joined()
        let clientId = kept.first { $0.0 == "client_id" }?.1 ?? ""
        let notice = error.map { "<p class=\"error\">\(Html.escape($0))</p>" } ?? ""
        let body = """
            <main class="card">
            <p class="banner">Local test environment — portal-auth-emulator</p>
            <h1>Sign in with Emulator OIDC</h1>
            <p>to continue to <code>\(Html.escape(clientId))</code></p>
            \(notice)
            <form method="post" action="\(Html.escape(baseURL + Self.oidcBase + "/authorize"))">
            \(hidden)
            <label>Email <input type="email" name="email" autocomplete="off"></label>
            <button type="submit" name="action" value="continue">Continue</button>
            <button type="submit" name="action" value="cancel">Cancel</button>
            </form>
            </main>
            """
        return .html(error == nil ? 200 : 400, Html.page(title: "Sign in with Emulator OIDC", style: "", body: body))
    }

    /// Continue: a code for the typed account; Cancel: `error=access_denied`.
    private func submitOIDCPage(_ form: [String: String]) -> EmulatorResponse {
        guard case .success(let kept) = oidcRequest(form) else { return showOIDCPage(form) }
        let fields = Dictionary(kept, uniquingKeysWith: { _, last in last })
        let redirectUri = fields["redirect_uri"] ?? ""
        let state = fields["state"].map { [("state", $0)] } ?? []
        guard form["action"] == "continue" else {
            return .redirect(to: FormEncoding.appendingQuery(redirectUri, [("error", "access_denied")] + state))
        }
        guard let email = chosenEmail(form) else { return showOIDCPage(form, error: "Type an email address.") }
        let code = "oidcc_" + Crypto.randomToken()
        oidcCodes.put(
            GenericOIDCAuthorization(
                clientId: fields["client_id"] ?? "", redirectUri: redirectUri, nonce: fields["nonce"],
                codeChallenge: fields["code_challenge"], email: email),
            for: code, lifetimeSeconds: OAuth2CodeStore.lifetimeSeconds)
        return .redirect(to: FormEncoding.appendingQuery(redirectUri, [("code", code)] + state))
    }

    /// RFC 6749 §4.1.3: the code (spent by its first use), the same client and redirect URI, the PKCE
    /// verifier when the request had a challenge; the answer carries the `id_token`.
    private func oidcToken(_ form: [String: String]) -> EmulatorResponse {
        func refuse(_ error: String, _ description: String) -> EmulatorResponse {
            .json(400, ["error": error, "error_description": description])
        }
        guard form["grant_type"] == "authorization_code" else {
            return refuse("unsupported_grant_type", "grant_type must be authorization_code")
        }
        guard let code = form["code"], let authorization = oidcCodes.take(code) else {
            return refuse("invalid_grant", "the code is unknown, expired or already used")
        }
        guard authorization.clientId == form["client_id"], authorization.redirectUri == form["redirect_uri"] else {
            return refuse("invalid_grant", "client_id and redirect_uri must be the ones the code was issued for")
        }
        if let challenge = authorization.codeChallenge {
            let verifier = form["code_verifier"] ?? ""
            let computed = Base64URL.encode(context.libcrypto.sha256(Array(verifier.utf8)))
            guard PKCECheck.isWellFormed(verifier), Crypto.equal(Array(computed.utf8), Array(challenge.utf8)) else {
                return refuse("invalid_grant", "code_verifier does not match the code_challenge (S256)")
            }
        }
        var claims: [String: Any] = [
            "iss": context.genericOIDCIssuer, "aud": authorization.clientId,
            "sub": "oidc-" + Crypto.sha256Hex("oidc-account|\(authorization.email)").prefix(24),
            "email": authorization.email, "email_verified": true, "iat": now, "exp": now + OIDCTokens.lifetimeSeconds
        ]
        if let nonce = authorization.nonce { claims["nonce"] = nonce }
        guard let idToken = try? context.tokens.sign(claims, with: .identityProviders) else {
            return .json(500, ["error": "server_error", "error_description": "the emulator could not sign the token"])
        }
        return .json(
            200,
            [
                "access_token": "oidca_" + Crypto.randomToken(), "token_type": "Bearer", "expires_in": OIDCTokens.lifetimeSeconds,
                "scope": "openid email", "id_token": idToken
            ])
    }
}
