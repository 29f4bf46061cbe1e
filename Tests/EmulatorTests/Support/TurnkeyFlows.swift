import AuthBase
import AuthTestSupport
import Foundation
import PortalAuthGNOME

/// A session key as a Turnkey client makes one (libcrypto, as the real client here), the nonce that
/// binds a token to it, and its stamps.
struct SessionKey {
    static let crypto = LibcryptoProvider()
    let pair: P256KeyPair

    init() throws { pair = try Self.crypto.generateP256() }

    /// The compressed public key in lower-case hex.
    var publicKey: String { pair.publicKeyHex }

    /// sha256hex(publicKey): the nonce Google/Apple/Turnkey tokens must carry for this key.
    var nonce: String { Hex.encode(Self.crypto.sha256(Array(publicKey.utf8))) }

    /// `X-Stamp` for `body`: base64url of `{"publicKey","scheme","signature"}`, signed over the exact bytes.
    func stamp(_ body: Data, signingKey: P256KeyPair? = nil) throws -> String {
        let signer = signingKey ?? pair
        let signature = try Self.crypto.p256Sign(Array(body), privateKey: signer.privateKey)
        let stamp = TurnkeyWire.Stamp(publicKey: publicKey, signature: Hex.encode(signature))
        return Base64URL.encode(try JSONEncoder().encode(stamp))
    }
}

/// An RFC 7636 pair as the Turnkey SDK makes it: 32 random bytes, base64url; S256 challenge.
struct PKCEPair {
    let verifier: String
    let challenge: String

    init() throws {
        verifier = Base64URL.encode(try SessionKey.crypto.randomBytes(32))
        challenge = Base64URL.encode(SessionKey.crypto.sha256(Array(verifier.utf8)))
    }
}

extension HTTPResult {
    /// Turnkey's error body `{"code","message","details"}`.
    var turnkeyCode: Int? { json?["code"] as? Int }
    var turnkeyMessage: String? { json?["message"] as? String }
    var turnkeyReason: String? { (json?["details"] as? [[String: Any]])?.first?["reason"] as? String }
}

/// Drives Turnkey's flows the way the core and a browser would. Results may hold tokens and codes:
/// callers compare them, never print them.
extension EmulatorClient {
    static let appScheme = "io.github.portalauth.signin"
    static let appRedirect = "io.github.portalauth.signin://"
    static let authProxyPrefix = "/turnkey/auth-proxy"
    static let apiPrefix = "/turnkey/api"

    /// Google's and Apple's registered redirect URI: the emulator's redirect page with the app scheme.
    var hostedRedirectUri: String { baseURL.absoluteString + "/turnkey/oauth-redirect?scheme=\(Self.appScheme)" }

    // MARK: Auth Proxy and API

    func authProxy(_ endpoint: String, _ json: Any, configId: String? = "local-dev") async throws -> HTTPResult {
        let body = try JSONSerialization.data(withJSONObject: json)
        return try await authProxy(endpoint, body: body, configId: configId)
    }

    func authProxy(_ endpoint: String, body: Data, configId: String? = "local-dev") async throws -> HTTPResult {
        try await send(
            "POST", Self.authProxyPrefix + endpoint, body: body, contentType: "application/json",
            headers: configId.map { [TurnkeyWire.Header.authProxyConfigId: $0] } ?? [:])
    }

    /// A stamped API call; `stampedBy` signs with another key while naming `key` (a forged stamp).
    func stamped(
        _ endpoint: String, _ json: Any, key: SessionKey, stampedBy: P256KeyPair? = nil,
        stampOverride: String? = nil
    ) async throws -> HTTPResult {
        let body = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
        let stamp = try stampOverride ?? key.stamp(body, signingKey: stampedBy)
        return try await send(
            "POST", Self.apiPrefix + endpoint, body: body, contentType: "application/json",
            headers: [TurnkeyWire.Header.stamp: stamp])
    }

    // MARK: Google and Apple: origin page → fake provider page → redirect page → app

    struct OIDCSignIn {
        /// The fake provider's page URL the origin page sent the browser to.
        let providerPage: String
        /// The provider's answer (a 302 to the redirect page).
        let providerAnswer: HTTPResult
        /// The redirect page's answer (a 302 into the app).
        let appRedirect: HTTPResult
        /// The query of the `io.github.portalauth.signin://?…` URL.
        var appQuery: [String: String] { AuthorizeURLs.query(appRedirect.location ?? "") }
        var idToken: String? { appQuery["id_token"] }
    }

    func originURL(
        provider: String, clientId: String? = nil, redirectUri: String? = nil, nonce: String,
        state: String?
    ) -> String {
        var items = [
            ("provider", provider), ("clientId", clientId ?? "emulator-turnkey-\(provider)"),
            ("redirectUri", redirectUri ?? hostedRedirectUri), ("nonce", nonce)
        ]
        if let state { items.append(("state", state)) }
        return baseURL.absoluteString + "/turnkey/oauth-origin?" + JavaURLEncoder.encode(items)
    }

    /// The whole browser half of a Google or Apple sign-in, choosing `email` (or Cancel).
    func oidcSignIn(
        provider: String, email: String = "alice@example.com", nonce: String, state: String? = "state-1",
        clientId: String? = nil, action: String = "continue", share: String = "share"
    ) async throws -> OIDCSignIn {
        let origin = try await get(originURL(provider: provider, clientId: clientId, nonce: nonce, state: state))
        guard origin.status == 302, let pageURL = origin.location else {
            throw FlowFailure(description: "origin page answered \(origin.status)")
        }
        let page = try await get(pageURL)
        guard page.status == 200, let form = HTMLForm(page: page.text) else {
            throw FlowFailure(description: "\(provider) page answered \(page.status)")
        }
        let answer = try await postForm(
            form.action,
            form.hiddenFields + [
                ("email", email), ("custom_email", ""),
                ("share", share), ("action", action)
            ])
        guard answer.status == 302, let redirectPage = answer.location else {
            throw FlowFailure(description: "\(provider) form answered \(answer.status)")
        }
        return OIDCSignIn(providerPage: pageURL, providerAnswer: answer, appRedirect: try await get(redirectPage))
    }

    func idToken(
        provider: String = "google", email: String = "alice@example.com", key: SessionKey,
        clientId: String? = nil
    ) async throws -> String {
        guard let token = try await oidcSignIn(provider: provider, email: email, nonce: key.nonce, clientId: clientId).idToken else {
            throw FlowFailure(description: "no id_token in the app redirect")
        }
        return token
    }

    /// An `id_token` from the fake provider's own authorize page, asked for directly (as an app with
    /// its own OIDC client does, not through Turnkey's origin page): the `nonce` the app chose, and a
    /// `tknonce` custom parameter the provider copies into the token (as an Auth0 rule does).
    func idTokenFromProvider(
        _ provider: String = "google", email: String = "alice@example.com", nonce: String,
        tknonce: String?
    ) async throws -> String {
        var items = [
            ("client_id", "emulator-turnkey-\(provider)"), ("redirect_uri", hostedRedirectUri),
            ("response_type", "code id_token"), ("nonce", nonce), ("state", "state-3")
        ]
        if let tknonce { items.append(("tknonce", tknonce)) }
        let page = try await get(baseURL.absoluteString + "/idp/\(provider)/authorize?" + JavaURLEncoder.encode(items))
        guard page.status == 200, let form = HTMLForm(page: page.text) else {
            throw FlowFailure(description: "\(provider) page answered \(page.status)")
        }
        let answer = try await postForm(
            form.action,
            form.hiddenFields + [
                ("email", email), ("custom_email", ""),
                ("share", "share"), ("action", "continue")
            ])
        guard answer.status == 302, let redirectPage = answer.location,
            let token = AuthorizeURLs.query(try await get(redirectPage).location ?? "")["id_token"]
        else {
            throw FlowFailure(description: "no id_token from the \(provider) page (it answered \(answer.status))")
        }
        return token
    }

    // MARK: Discord and X: fake provider page → app → oauth2_authenticate

    func oauth2AuthorizeURL(
        provider: String, clientId: String? = nil, redirectUri: String = appRedirect,
        challenge: String, state: String? = "state-2", extra: [(String, String)] = []
    ) -> String {
        // The scope the app asks for: the provider's row's.
        var scope = ""
        if case .oauth2PKCE(_, let rowScope, _)? = SignInProvider(rawValue: provider)?.offer(on: .turnkey)?.flow { scope = rowScope }
        var items = [
            ("client_id", clientId ?? "emulator-turnkey-\(provider)"), ("redirect_uri", redirectUri),
            ("response_type", "code"), ("code_challenge", challenge), ("code_challenge_method", "S256"),
            ("scope", scope)
        ]
        if let state { items.append(("state", state)) }
        return baseURL.absoluteString + "/idp/\(provider)/authorize?" + JavaURLEncoder.encode(items + extra)
    }

    /// GETs the Discord or X page and posts its form; returns the provider's 302 into the app.
    func oauth2Authorize(
        provider: String, email: String = "alice@example.com", pkce: PKCEPair, clientId: String? = nil,
        state: String? = "state-2", action: String = "continue"
    ) async throws -> HTTPResult {
        let page = try await get(oauth2AuthorizeURL(provider: provider, clientId: clientId, challenge: pkce.challenge, state: state))
        guard page.status == 200, let form = HTMLForm(page: page.text) else {
            throw FlowFailure(description: "\(provider) page answered \(page.status)")
        }
        return try await postForm(form.action, form.hiddenFields + [("email", email), ("custom_email", ""), ("action", action)])
    }

    func oauth2Code(provider: String, email: String = "alice@example.com", pkce: PKCEPair, clientId: String? = nil) async throws -> String {
        let answer = try await oauth2Authorize(provider: provider, email: email, pkce: pkce, clientId: clientId)
        guard let code = AuthorizeURLs.query(answer.location ?? "")["code"] else {
            throw FlowFailure(description: "no code in the redirect")
        }
        return code
    }

    /// `nonce` nil: the field is left out (Turnkey's API makes it optional).
    func oauth2Authenticate(
        provider: String, code: String, verifier: String, nonce: String?, clientId: String? = nil,
        redirectUri: String = appRedirect
    ) async throws -> HTTPResult {
        var body: [String: Any] = [
            "authCode": code, "clientId": clientId ?? "emulator-turnkey-\(provider)", "codeVerifier": verifier,
            "provider": provider == "discord" ? "OAUTH2_PROVIDER_DISCORD" : "OAUTH2_PROVIDER_X", "redirectUri": redirectUri
        ]
        if let nonce { body["nonce"] = nonce }
        return try await authProxy(TurnkeyWire.AuthProxyPath.oauth2Authenticate, body)
    }

    // MARK: completeOAuth's calls

    func accountOrganization(_ oidcToken: String) async throws -> HTTPResult {
        try await authProxy(TurnkeyWire.AuthProxyPath.account, ["filterType": "OIDC_TOKEN", "filterValue": oidcToken])
    }

    func signUp(
        _ oidcToken: String, providerName: String = "google", secondary: [[String: String]] = [],
        userEmail: String? = "alice@example.com"
    ) async throws -> HTTPResult {
        var body: [String: Any] = [
            "apiKeys": [Any](), "authenticators": [Any](), "organizationName": "Alice's org", "userName": "Alice",
            "oauthProviders": secondary.map { ["providerName": providerName, "oidcClaims": $0] as [String: Any] }
                + [["providerName": providerName, "oidcToken": oidcToken]]
        ]
        if let userEmail { body["userEmail"] = userEmail }
        return try await authProxy(TurnkeyWire.AuthProxyPath.signup, body)
    }

    func oauthLogin(
        _ oidcToken: String, key: SessionKey, organizationId: String? = nil,
        invalidateExisting: Bool = false
    ) async throws -> HTTPResult {
        var body: [String: Any] = ["invalidateExisting": invalidateExisting, "oidcToken": oidcToken, "publicKey": key.publicKey]
        if let organizationId { body["organizationId"] = organizationId }
        return try await authProxy(TurnkeyWire.AuthProxyPath.oauthLogin, body)
    }

    struct TurnkeySignIn {
        let organizationId: String
        let userId: String
        let session: String
        var claims: JWTClaims? { try? JWTClaims(jwt: session) }
    }

    /// Sign-up then login (what completeOAuth does for a new user): a live session for `key`.
    func signUpAndLogIn(oidcToken: String, key: SessionKey, providerName: String = "google") async throws -> TurnkeySignIn {
        let signup = try await signUp(oidcToken, providerName: providerName)
        guard signup.status == 200, let organizationId = signup.json?["organizationId"] as? String,
            let userId = signup.json?["userId"] as? String
        else {
            throw FlowFailure(description: "signup_v2 answered \(signup.status)")
        }
        let login = try await oauthLogin(oidcToken, key: key)
        guard login.status == 200, let session = login.json?["session"] as? String else {
            throw FlowFailure(description: "oauth_login answered \(login.status)")
        }
        return TurnkeySignIn(organizationId: organizationId, userId: userId, session: session)
    }

    /// A signed-up Google user with a live session for a fresh key.
    func turnkeyGoogleUser(email: String = "alice@example.com") async throws -> (key: SessionKey, signIn: TurnkeySignIn) {
        let key = try SessionKey()
        let token = try await idToken(email: email, key: key)
        return (key, try await signUpAndLogIn(oidcToken: token, key: key))
    }

    func turnkeyState() async throws -> [String: Any] { try await get("/emulator/v1/turnkey").data ?? [:] }
}

/// Verifies an ES256 JWT against a JWKS document the emulator serves, the way a relying party does.
enum JWKSVerifier {
    static func verifies(_ jwt: String, jwks: HTTPResult) -> Bool {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
            header["alg"] as? String == "ES256", let kid = header["kid"] as? String,
            let keys = jwks.json?["keys"] as? [[String: Any]],
            let jwk = keys.first(where: { $0["kid"] as? String == kid }),
            let x = (jwk["x"] as? String).flatMap(Base64URL.decode), let y = (jwk["y"] as? String).flatMap(Base64URL.decode),
            let raw = Base64URL.decode(parts[2]), let der = ECDSASignature.der(fromRaw: raw)
        else { return false }
        return SessionKey.crypto.p256Verify(der, message: Array((parts[0] + "." + parts[1]).utf8), publicKey: [0x04] + x + y)
    }
}
