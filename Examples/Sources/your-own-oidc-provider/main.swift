// Turnkey's "Using completeOAuth directly" with an OpenID Connect provider the SDK has no helper for:
// the page's "run your own OAuth flow to obtain an OIDC token and complete authentication with
// completeOAuth(oidcToken:publicKey:…)", on a GNOME desktop. The flow is the desktop's own (RFC 8252):
// the provider in the user's browser, the code back on a loopback port this process holds, PKCE, and
// the token's nonce bound to a key from `createKeyPair()`. Against the local emulator the provider is
// its generic issuer (`OIDC_ISSUER`, default http://127.0.0.1:8790/idp/oidc).
import ExampleSupport
import FoundationEssentials
import PortalAuthGNOME

/// Your own provider's sign-in, up to its `id_token`.
struct OwnOIDCFlow {
    let issuer: String
    let clientId: String
    let transport: any HTTPTransport = SoupTransport()
    let crypto: any CryptoProvider = LibcryptoProvider()

    /// Opens the provider's sign-in from `anchor`'s window with `nonce`, and returns its `id_token`.
    func idToken(nonce: String, anchor: any PresentationAnchor) async throws -> String {
        let discovery = try await json(
            Discovery.self, HTTPRequest(method: "GET", url: url(issuer + "/.well-known/openid-configuration")))

        // The redirect comes back to a port only this process holds (any free one).
        let state = base64url(try crypto.randomBytes(16))
        let verifier = base64url(try crypto.randomBytes(32))
        let listener = try await LoopbackRedirectServer().listen(port: 0, holdingPortFor: .seconds(60)) { url in
            guard let query = URLComponents(string: url), query.path == "/callback" else { return .notFound }
            return query.queryItems?.contains { $0.name == "state" && $0.value == state } == true ? .take : .notASignIn
        }
        defer { listener.close() }
        let redirectUri = "http://127.0.0.1:\(listener.port)/callback"

        var authorize = URLComponents(string: discovery.authorization_endpoint)!
        authorize.queryItems = [
            URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "client_id", value: clientId),
            URLQueryItem(name: "redirect_uri", value: redirectUri), URLQueryItem(name: "scope", value: "openid email"),
            URLQueryItem(name: "state", value: state), URLQueryItem(name: "nonce", value: nonce),
            URLQueryItem(name: "code_challenge", value: base64url(crypto.sha256(Array(verifier.utf8)))),
            URLQueryItem(name: "code_challenge_method", value: "S256")
        ]
        try await GioBrowserLauncher().open(authorize.url!, from: anchor)

        guard let redirect = try await listener.redirect(), let items = URLComponents(string: redirect)?.queryItems else {
            throw FlowError("the sign-in ended without an answer")
        }
        guard let code = items.first(where: { $0.name == "code" })?.value else {
            throw FlowError("the provider refused: \(items.first { $0.name == "error" }?.value ?? "no code")")
        }

        var form = URLComponents()
        form.queryItems = [
            URLQueryItem(name: "grant_type", value: "authorization_code"), URLQueryItem(name: "code", value: code),
            URLQueryItem(name: "redirect_uri", value: redirectUri), URLQueryItem(name: "client_id", value: clientId),
            URLQueryItem(name: "code_verifier", value: verifier)
        ]
        let tokens = try await json(
            Tokens.self,
            HTTPRequest(
                method: "POST", url: url(discovery.token_endpoint), headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data((form.percentEncodedQuery ?? "").utf8)))
        return tokens.id_token
    }

    /// The parts of the provider's discovery document (OpenID Connect Discovery 1.0) this flow uses.
    struct Discovery: Decodable {
        let authorization_endpoint: String
        let token_endpoint: String
    }

    struct Tokens: Decodable {
        let id_token: String
    }

    private func url(_ text: String) throws -> URL {
        guard let url = URL(string: text) else { throw FlowError("not a URL: \(text)") }
        return url
    }

    private func json<Body: Decodable>(_ type: Body.Type, _ request: HTTPRequest) async throws -> Body {
        let response = try await transport.send(request)
        guard response.status == 200 else { throw FlowError("\(request.url.path) answered \(response.status)") }
        return try JSONDecoder().decode(type, from: response.body)
    }
}

/// RFC 4648 §5 without padding, as PKCE (RFC 7636) and `state` want it.
func base64url(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
}

struct FlowError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

@MainActor final class OwnProviderView {
    let turnkey: TurnkeyContext
    let status: ExampleLabel

    init(turnkey: TurnkeyContext, view: ExampleWindow) {
        self.turnkey = turnkey
        status = view.addLabel("Signed out")
        view.addButton("Continue with your own provider") { [weak self] in
            try await self?.signIn(anchor: WindowAnchor(gtkWindow: view.gtkWindow))
        }
    }

    func signIn(anchor: WindowAnchor) async throws {
        // A session key the token's nonce is bound to, its private key kept in the keyring.
        let publicKey = try await turnkey.createKeyPair()
        let flow = OwnOIDCFlow(
            issuer: ExampleEnvironment.value("OIDC_ISSUER", or: "http://127.0.0.1:8790/idp/oidc"),
            clientId: ExampleEnvironment.value("OIDC_CLIENT_ID", or: "your-own-oidc-example"))
        let oidcToken = try await flow.idToken(nonce: try await turnkey.nonce(forPublicKey: publicKey), anchor: anchor)

        // From the page.
        let result = try await turnkey.completeOAuth(
            oidcToken: oidcToken,
            publicKey: publicKey,
            sessionKey: "main"
        )
        // result.session is stored automatically when completeOAuth succeeds
        status.show("Signed in to organization \(result.session.organizationId)")
        print("Signed in to organization \(result.session.organizationId)")
    }
}

let app = ExampleApp(id: "io.github.portalauth.examples.YourOwnOIDCProvider")
var ownProviderView: OwnProviderView?
app.run {
    TurnkeyContext.configure(
        TurnkeyConfig(
            apiUrl: ExampleEnvironment.value("TURNKEY_API_URL", or: "https://api.turnkey.com"),
            authProxyUrl: ExampleEnvironment.value("TURNKEY_AUTH_PROXY_URL", or: "https://authproxy.turnkey.com"),
            authProxyConfigId: ExampleEnvironment.value("TURNKEY_AUTH_PROXY_CONFIG_ID", or: "local-dev"),
            rpId: "io.github.portalauth.examples",
            organizationId: ExampleEnvironment.value("TURNKEY_ORGANIZATION_ID", or: ""),
            auth: .init(oauth: .init(appScheme: ExampleEnvironment.value("TURNKEY_APP_SCHEME", or: "io.github.portalauth.signin")))))
    let window = app.makeWindow(title: "Your own OIDC provider")
    ownProviderView = OwnProviderView(turnkey: TurnkeyContext.shared, view: window)
    window.present()
}
