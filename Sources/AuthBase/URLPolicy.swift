/// Which URLs the apps may open or talk to: `https:` anywhere, plain `http:` only to this machine.
/// Anything else (`file:`, `smb:`, `apt:`, `http:` to a remote host, credentials in the authority) is
/// refused before a browser starts or a request leaves.
package enum URLPolicy {
    /// Whether `host` (without port) names this machine.
    package static func isLoopbackHost(_ host: String) -> Bool {
        let lowered = host.lowercased()
        return lowered == "localhost" || lowered == "127.0.0.1" || lowered == "[::1]" || lowered == "::1"
    }

    /// `https:` with a host, or `http:` to a loopback host.
    package static func isSecureOrLoopback(_ url: String) -> Bool {
        let text = URLText(url)
        guard let scheme = text.schemeName, let authorityRange = text.authority else { return false }
        let authority = text.bytes[authorityRange]
        // user:password@host could make a remote host look local to a careless reader: never accepted.
        guard !authority.isEmpty, !authority.contains(UInt8(ascii: "@")) else { return false }
        switch scheme {
        case "https": return true
        case "http": return isLoopbackHost(host(of: authority))
        default: return false
        }
    }

    /// The host of `host[:port]` (an IPv6 literal keeps its brackets).
    private static func host(of authority: ArraySlice<UInt8>) -> String {
        if authority.first == UInt8(ascii: "["), let close = authority.firstIndex(of: UInt8(ascii: "]")) {
            return String(decoding: authority[...close], as: UTF8.self)
        }
        let end = authority.firstIndex(of: UInt8(ascii: ":")) ?? authority.endIndex
        return String(decoding: authority[..<end], as: UTF8.self)
    }
}
