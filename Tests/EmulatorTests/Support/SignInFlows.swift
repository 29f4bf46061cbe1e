import Foundation

/// Drives the browser half of a sign-in the way a person would: authorize URL → fake provider form
/// → callback → the app's redirect URL. Returns grants; callers never print them.
extension EmulatorClient {
    struct AuthorizeURLs {
        let google: String
        let apple: String
        var state: String { Self.query(google)["state"] ?? "" }
        static func query(_ url: String) -> [String: String] {
            var result: [String: String] = [:]
            for item in URLComponents(string: url)?.queryItems ?? [] { result[item.name] = item.value ?? "" }
            return result
        }
    }

    struct FlowFailure: Error, CustomStringConvertible {
        let description: String
    }

    func authorizeURLs(accountAbstracted: Bool = false) async throws -> AuthorizeURLs {
        let query = "redirectUrl=\(Self.encodedRedirectUrl)" + (accountAbstracted ? "&isAccountAbstracted=true" : "")
        let result = try await get("/api/v3/auth/oauth/urls?\(query)")
        guard result.status == 200, let google = result.data?["google"] as? String, let apple = result.data?["apple"] as? String else {
            throw FlowFailure(description: "oauth/urls answered \(result.status)")
        }
        return AuthorizeURLs(google: google, apple: apple)
    }

    /// Submits the Google page and follows the provider's redirect to the callback; returns the final
    /// redirect into the app (a custom-scheme URL).
    func completeGoogle(
        _ urls: AuthorizeURLs, email: String = "", customEmail: String = "", action: String = "continue"
    ) async throws -> HTTPResult {
        let query = AuthorizeURLs.query(urls.google)
        let page = try await get(urls.google)
        guard page.status == 200 else { throw FlowFailure(description: "Google page answered \(page.status)") }
        let providerAnswer = try await postForm(
            "/idp/google/authorize",
            [
                ("client_id", query["client_id"] ?? ""), ("redirect_uri", query["redirect_uri"] ?? ""),
                ("state", query["state"] ?? ""), ("email", email), ("custom_email", customEmail), ("action", action)
            ])
        guard providerAnswer.status == 302, let callback = providerAnswer.location else {
            throw FlowFailure(description: "Google form answered \(providerAnswer.status)")
        }
        return try await get(callback)
    }

    /// Submits the Apple page, whose form posts straight to the callback (form_post).
    func completeApple(
        _ urls: AuthorizeURLs, email: String = "", customEmail: String = "", share: String = "share",
        action: String = "continue"
    ) async throws -> HTTPResult {
        let query = AuthorizeURLs.query(urls.apple)
        let page = try await get(urls.apple)
        guard page.status == 200 else { throw FlowFailure(description: "Apple page answered \(page.status)") }
        return try await postForm(
            query["redirect_uri"] ?? "",
            [
                ("state", query["state"] ?? ""), ("email", email), ("custom_email", customEmail),
                ("share", share), ("action", action)
            ])
    }

    /// The query of an app redirect (`io.github.portalauth.signin://auth/callback?…`).
    static func appRedirectQuery(_ result: HTTPResult) -> [String: String] {
        guard let location = result.location, location.hasPrefix(redirectUrl + "?") else { return [:] }
        return AuthorizeURLs.query(location)
    }

    /// A full Google sign-in as `email`, returning the grant from the app redirect.
    func googleGrant(email: String) async throws -> String {
        let redirect = try await completeGoogle(try await authorizeURLs(), email: email)
        guard let token = Self.appRedirectQuery(redirect)["token"] else { throw FlowFailure(description: "no grant in the redirect") }
        return token
    }

    func exchange(_ grant: String, path: String = "/api/v3/auth/oauth/tokens", environment: String?? = .none) async throws -> HTTPResult {
        try await post(path, json: ["token": grant], environment: environment)
    }

    func clientsMe(_ sessionToken: String, environment: String?? = .none) async throws -> HTTPResult {
        try await get("/api/v3/clients/me", headers: ["Authorization": "Bearer \(sessionToken)"], environment: environment)
    }
}

/// Writes a config file for one test and removes it afterwards.
func withConfigFile<T>(_ json: String, _ body: (String) throws -> T) throws -> T {
    let path = NSTemporaryDirectory() + "emulator-config-\(UUID().uuidString).json"
    try json.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}
