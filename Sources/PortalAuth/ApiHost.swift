import FoundationEssentials

/// Turns the configured `apiHost` into the base URL every request starts with.
///
/// A bare host gets `http://` only when it is loopback (`localhost` or `127.0.0.1`, with an
/// optional port) and `https://` otherwise. A host given with a scheme keeps it if it is
/// `https`, or `http` to loopback; anything else would send credentials in the clear.
enum ApiHost {
    static func baseURL(from apiHost: String) throws -> URL {
        let invalid = PortalAuthError.invalidArgument(name: "apiHost")
        var text = apiHost.trimmed
        while text.hasSuffix("/") { text.removeLast() }
        guard !text.isEmpty else { throw invalid }

        let scheme: String
        let rest: Substring
        if let separator = text.firstRange(of: "://") {
            scheme = text[..<separator.lowerBound].lowercased()
            rest = text[separator.upperBound...]
        } else {
            scheme = ""
            rest = Substring(text)
        }

        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count)
        guard let host = parseAuthority(authority) else { throw invalid }
        let loopback = Loopback.isLoopbackHost(host)

        let resolvedScheme: String
        switch scheme {
        case "": resolvedScheme = loopback ? "http" : "https"
        case "https": resolvedScheme = "https"
        case "http" where loopback: resolvedScheme = "http"
        default: throw invalid
        }

        guard let url = URL(string: "\(resolvedScheme)://\(authority)\(path)"), url.host != nil else {
            throw invalid
        }
        return url
    }

    /// The host of `host[:port]`, or nil when either part holds a character no host or port can.
    private static func parseAuthority(_ authority: Substring) -> String? {
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let host = parts.first, !host.isEmpty else { return nil }
        let hostIsClean = host.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "A"..."Z", "a"..."z", "0"..."9", "-", ".": return true
            default: return false
            }
        }
        guard hostIsClean else { return nil }
        if parts.count == 2 {
            let port = parts[1]
            guard !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCII), let number = Int(port),
                (1...65535).contains(number)
            else { return nil }
        }
        return String(host)
    }
}
