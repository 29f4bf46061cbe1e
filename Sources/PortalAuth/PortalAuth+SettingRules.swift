import FoundationEssentials

/// The rules `PortalAuth.init` applies to its settings, for a settings screen that checks a value
/// before saving it: one set of rules, so the screen never accepts what a sign-in would refuse.
extension PortalAuth {
    /// The base URL an `apiHost` stands for; throws `invalidArgument(name: "apiHost")` when it is
    /// blank, malformed, or plain `http` to a host other than this machine.
    public static func apiBaseURL(for apiHost: String) throws -> URL {
        try ApiHost.baseURL(from: apiHost)
    }

    /// An auth environment ID is sent as a header value: not blank, no whitespace or control characters.
    public static func isValidAuthEnvironmentId(_ id: String) -> Bool {
        let trimmed = id.trimmed
        return !trimmed.isEmpty && !trimmed.unicodeScalars.contains(where: isSpaceOrControl)
    }

    /// White space, line breaks, control and format characters (what Foundation's
    /// `.whitespacesAndNewlines` and `.controlCharacters` hold, up to their oddities in plane 14).
    private static func isSpaceOrControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format: return true
        default: return scalar.properties.isWhitespace
        }
    }

    /// The custom scheme of a redirect URL (lowercased), or nil for none or http/https: only a
    /// custom scheme brings the browser back to a desktop app.
    public static func customScheme(of redirectUrl: String) -> String? {
        RedirectURL.customScheme(of: redirectUrl)
    }

    /// The port of a loopback redirect URL, `http://127.0.0.1:PORT/PATH` (RFC 8252 §7.3), or nil when
    /// `redirectUrl` is not one (`localhost`, no port, port 0, a query or fragment). With such a
    /// redirect URL `signInWith*` listens on that port itself instead of waiting for the desktop.
    public static func loopbackPort(of redirectUrl: String) -> UInt16? {
        RedirectURL.loopbackPort(of: redirectUrl)
    }
}
