import FoundationEssentials

/// Turnkey's Auth Proxy: one method per endpoint, every one a POST with the config ID header and no
/// stamp. A thin transport: it knows nothing about keys, sessions or ordering. No endpoint gives a
/// status a meaning of its own: each has the one `TurnkeyHTTP.error(for:path:)` gives it.
struct AuthProxyAPI: Sendable {
    let http: TurnkeyHTTP
    let configId: String

    private func post<Response: Decodable>(_ path: String, _ body: some Encodable, as type: Response.Type) async throws -> Response {
        try await http.post(
            path, body: try TurnkeyHTTP.encode(body),
            headers: [TurnkeyWire.Header.authProxyConfigId: configId], as: type)
    }

    func walletKitConfig() async throws -> TurnkeyWire.WalletKitConfig {
        try await post(TurnkeyWire.AuthProxyPath.walletKitConfig, TurnkeyWire.Empty(), as: TurnkeyWire.WalletKitConfig.self)
    }

    /// The sub-organization the token's user has, or nil when there is none yet.
    func account(oidcToken: String) async throws -> String? {
        try await post(
            TurnkeyWire.AuthProxyPath.account, TurnkeyWire.AccountRequest(oidcToken: oidcToken),
            as: TurnkeyWire.AccountResponse.self
        ).organizationId?.nonBlank
    }

    /// Exchanges a Discord or X code (spending it) for an OIDC token Turnkey mints.
    func oauth2Authenticate(_ request: TurnkeyWire.OAuth2AuthenticateRequest) async throws -> String {
        let path = TurnkeyWire.AuthProxyPath.oauth2Authenticate
        guard let token = try await post(path, request, as: TurnkeyWire.OAuth2AuthenticateResponse.self).oidcToken?.nonBlank else {
            throw TurnkeyAuthError.malformedResponse(path: path, missing: "oidcToken")
        }
        return token
    }

    /// The session JWT.
    func oauthLogin(_ request: TurnkeyWire.OAuthLoginRequest) async throws -> String {
        let path = TurnkeyWire.AuthProxyPath.oauthLogin
        guard let session = try await post(path, request, as: TurnkeyWire.OAuthLoginResponse.self).session?.nonBlank else {
            throw TurnkeyAuthError.malformedResponse(path: path, missing: "session")
        }
        return session
    }

    func signup(_ request: TurnkeyWire.SignupRequest) async throws -> TurnkeyWire.SignupResponse {
        try await post(TurnkeyWire.AuthProxyPath.signup, request, as: TurnkeyWire.SignupResponse.self)
    }
}
