import AuthBase
import Foundation

/// Turnkey's hosted pages (contract §2 and §4), as plain redirects: no JavaScript.
/// - The origin page (`oauth-origin.turnkey.com`) sends the browser on to Google or Apple.
/// - The redirect page (`oauth-redirect.turnkey.com`) hands the provider's answer to the app's scheme;
///   the real page reads a fragment, these providers answer in the query, so it forwards the query.
extension TurnkeyBackend {
    /// `GET /turnkey/oauth-origin?provider=google|apple&clientId=&redirectUri=&nonce=[&state=]`; other
    /// parameters (the SDK's additional state) are ignored, as by the real page.
    func showOAuthOrigin(_ request: EmulatorRequest) -> EmulatorResponse {
        let query = request.query
        guard let provider = query["provider"].flatMap(IdentityProvider.init(rawValue:)), provider.issuesIdTokens else {
            let names = IdentityProvider.allCases.filter(\.issuesIdTokens).map(\.rawValue).joined(separator: " or ")
            return .html(400, Html.errorPage(title: "Unknown provider", message: "The provider parameter must be \(names)."))
        }
        for name in ["clientId", "redirectUri", "nonce"] where (query[name] ?? "").isEmpty {
            return .html(
                400,
                Html.errorPage(
                    title: "Missing \(name)", message: "The sign-in link has no \(name) parameter. Start the sign-in again from the app."))
        }
        var items = [
            ("client_id", query["clientId"] ?? ""), ("redirect_uri", query["redirectUri"] ?? ""),
            ("response_type", "code id_token")
        ]
        items += provider.fakePage.originParameters(query["nonce"] ?? "")
        if let state = query["state"], !state.isEmpty { items.append(("state", state)) }
        return .redirect(to: baseURL + provider.emulatorAuthorizePath + "?" + JavaURLEncoder.encode(items))
    }

    /// `GET /turnkey/oauth-redirect?scheme=S&…` → `S://?…`: every other parameter forwarded exactly as
    /// it arrived (still encoded), `://` added when the scheme lacks it.
    func showOAuthRedirect(_ request: EmulatorRequest) -> EmulatorResponse {
        let pairs = QueryString.rawPairs(ArraySlice(request.rawQuery.utf8))
        var scheme = request.query["scheme"] ?? ""
        if scheme.hasSuffix("://") { scheme.removeLast(3) }
        guard Self.isURIScheme(scheme) else {
            return .html(
                400,
                Html.errorPage(
                    title: "Missing scheme", message: "The redirect has no valid scheme parameter, so it cannot return to an app."))
        }
        let forwarded = pairs.filter { QueryString.decode($0.name) != "scheme" }.map { pair in
            String(decoding: pair.name, as: UTF8.self) + "=" + String(decoding: pair.value, as: UTF8.self)
        }
        return .redirect(to: "\(scheme)://" + (forwarded.isEmpty ? "" : "?" + forwarded.joined(separator: "&")))
    }

    /// RFC 3986 §3.1: a letter, then letters, digits, `+`, `-` or `.`.
    private static func isURIScheme(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
    }
}
