import FoundationEssentials

/// The rules for the redirect that ends every sign-in: does an incoming URL target our
/// `redirectUrl`, and what does its query say. The byte-level work is `URLText` and `QueryString`
/// in the shared base; this file holds Portal's limits and names.
///
/// Hand-written rather than `URLComponents`: custom schemes (`app://auth/callback`) and https
/// links must normalise the same way, the path must not be percent-decoded (`callb%61ck` is not
/// `callback`), and the query must decode exactly like Portal's other SDKs.
enum RedirectURL {
    /// Longer URLs are not Portal redirects (UTF-16 code units, as Portal's SDKs count).
    static let maxLength = 8192
    /// An `error=` value is cut to this many characters before it reaches an error.
    static let maxErrorLength = 100

    /// True when `url` targets `redirectUrl`: fragment and query dropped, whitespace trimmed,
    /// trailing slashes removed, scheme and authority compared case-insensitively, path exactly.
    /// A `redirectUrl` without an authority (`scheme:path`) is compared lowercased as a whole, as
    /// PortalSwift does (ASCII letters only, like the scheme and authority).
    static func matches(_ url: String, redirectUrl: String) -> Bool {
        let registered = URLText(redirectUrl.trimmed)
        guard registered.authority == nil else { return URLText(url).sameTarget(as: registered) }
        return URLText(url).normalizedTarget.map(URLText.asciiLowercased) == registered.normalizedTarget.map(URLText.asciiLowercased)
    }

    /// The query parameters of `url` (last occurrence wins, `+` is a space, a component with a
    /// malformed escape is kept whole as it arrived).
    static func queryParameters(of url: String) -> [String: String] {
        URLText(url).queryParameters
    }

    /// The custom scheme of `redirectUrl` (lowercased), or nil when it has none or it is
    /// http/https: the browser flow can only be handed back to us through a custom scheme.
    static func customScheme(of redirectUrl: String) -> String? {
        guard let scheme = URLText(redirectUrl).schemeName, scheme != "http", scheme != "https" else { return nil }
        return scheme
    }
}
