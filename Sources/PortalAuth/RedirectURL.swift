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
    /// A loopback `redirectUrl` on port 0 ("any free port") matches its path on any loopback port.
    static func matches(_ url: String, redirectUrl: String) -> Bool {
        if loopbackPort(of: redirectUrl) == 0, let port = loopbackPort(of: targetOnly(url)), port != 0 {
            return matches(url, redirectUrl: withLoopbackPort(port, of: redirectUrl))
        }
        let registered = URLText(redirectUrl.trimmed)
        guard registered.authority == nil else { return URLText(url).sameTarget(as: registered) }
        return URLText(url).normalizedTarget.map(URLText.asciiLowercased) == registered.normalizedTarget.map(URLText.asciiLowercased)
    }

    /// The query parameters of `url` (last occurrence wins, `+` is a space, a component with a
    /// malformed escape is kept whole as it arrived).
    static func queryParameters(of url: String) -> [String: String] {
        URLText(url).queryParameters
    }

    /// The port of a loopback redirect URL (RFC 8252 §7.3): exactly `http://127.0.0.1:PORT` with an
    /// explicit port 0–65535, then an optional path, and nothing else (no user, query or fragment).
    /// `localhost` is not one (§8.3: a name may resolve elsewhere). Port 0 means any free port, for
    /// an environment that allows any loopback port (§7.3); each sign-in then sends the port it bound.
    static func loopbackPort(of redirectUrl: String) -> UInt16? {
        let url = URLText(redirectUrl.trimmed)
        guard url.schemeName == "http", let authority = url.authority, url.query == nil, url.fragment == nil else { return nil }
        let prefix = Array("127.0.0.1:".utf8)
        let authorityBytes = Array(url.bytes[authority])
        guard authorityBytes.starts(with: prefix) else { return nil }
        let digits = authorityBytes.dropFirst(prefix.count)
        guard (1...5).contains(digits.count), digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            digits.first != UInt8(ascii: "0") || digits.count == 1,
            let port = UInt16(String(decoding: digits, as: UTF8.self))
        else { return nil }
        let path = url.bytes[url.path]
        guard path.isEmpty || path.first == UInt8(ascii: "/") else { return nil }
        return port
    }

    /// `redirectUrl` (a loopback one) with `port` in place of its port: what a sign-in on a port
    /// chosen at run time sends. Any other URL is returned as it is.
    static func withLoopbackPort(_ port: UInt16, of redirectUrl: String) -> String {
        let trimmed = redirectUrl.trimmed
        guard let configured = loopbackPort(of: trimmed) else { return trimmed }
        let prefix = "http://127.0.0.1:"
        let rest = trimmed.dropFirst(prefix.count + String(configured).count)
        return prefix + String(port) + rest
    }

    /// `url` without its query and fragment (their bytes may be anything).
    private static func targetOnly(_ url: String) -> String {
        String(url.trimmed.prefix { $0 != "?" && $0 != "#" })
    }

    /// The custom scheme of `redirectUrl` (lowercased), or nil when it has none or it is
    /// http/https: the browser flow can only be handed back to us through a custom scheme.
    static func customScheme(of redirectUrl: String) -> String? {
        guard let scheme = URLText(redirectUrl).schemeName, scheme != "http", scheme != "https" else { return nil }
        return scheme
    }
}
