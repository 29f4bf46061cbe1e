import FoundationEssentials

/// The URLs a sign-in opens in the browser, as the SDK builds them, with configurable endpoints.
/// Values are encoded like Java's `URLEncoder` (space as `%20`), so the redirect URI arrives
/// byte for byte as the provider's allow list has it.
enum AuthorizeURLs {
    /// The names the origin page reads; `additionalState` may not reuse them.
    static let reservedNames: Set<String> = ["provider", "clientId", "redirectUri", "nonce", "state", "codeChallenge"]

    /// Google and Apple: Turnkey's origin page, which sends the browser on to the provider with the
    /// nonce (and the state, which the SDK leaves out and this product always sends).
    static func oidc(
        origin: URL, provider: TurnkeyProvider, clientId: String, redirectUri: String, nonce: String,
        state: String, additionalState: [String: String]
    ) -> URL {
        let items =
            [
                ("provider", provider.rawValue), ("clientId", clientId), ("redirectUri", redirectUri),
                ("nonce", nonce), ("state", state)
            ]
            + additionalState.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return url(origin, items)
    }

    /// Discord and X: the provider's own authorize endpoint, with PKCE S256 and the state.
    static func pkce(
        authorize: URL, clientId: String, redirectUri: String, challenge: String, scope: String,
        state: String
    ) -> URL {
        url(
            authorize,
            [
                ("client_id", clientId), ("redirect_uri", redirectUri), ("response_type", "code"),
                ("code_challenge", challenge), ("code_challenge_method", PKCE.method), ("scope", scope),
                ("state", state)
            ])
    }

    /// The Google and Apple redirect URI: the hosted redirect page (validated: no query of its own)
    /// with `?scheme=`, unencoded, as the SDK writes it.
    static func redirectPage(_ base: String, appScheme: String) -> String {
        base + "?scheme=" + appScheme
    }

    private static func url(_ base: URL, _ items: [(String, String)]) -> URL {
        // The base was validated (no query or fragment) and every value is percent-encoded.
        URL(string: base.absoluteString + "?" + JavaURLEncoder.encode(items))!
    }
}
