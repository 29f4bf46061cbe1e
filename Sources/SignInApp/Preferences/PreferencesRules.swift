import FoundationEssentials
import PortalAuth
import PortalAuthGNOME
import TurnkeyAuth

/// What Preferences accepts, with the cores' own rules: nil when a value may be saved, else what to
/// fix. Empty always passes: it means "use the service's default" (for an ID: not set up yet).
@MainActor
enum SettingRules {
    // MARK: Portal

    static func portalHost(_ value: String) -> String? {
        if value.isEmpty || (try? PortalAuth.apiBaseURL(for: value)) != nil { return nil }
        return tr(
            "Enter a host name such as api.portalhq.io, optionally with https:// and a port. Plain http is only allowed to this computer (127.0.0.1 or localhost)."
        )
    }

    static func authEnvironmentId(_ value: String) -> String? {
        value.isEmpty || PortalAuth.isValidAuthEnvironmentId(value) ? nil : tr("An auth environment ID has no spaces.")
    }

    /// The app's scheme, or a loopback address the app listens on itself (RFC 8252 §7.3).
    static func redirectURL(_ value: String) -> String? {
        if value.isEmpty || PortalAuth.customScheme(of: value) == SchemeHandler.scheme || PortalAuth.loopbackPort(of: value) != nil {
            return nil
        }
        if PortalAuth.customScheme(of: value) == nil, value.lowercased().hasPrefix("http") {
            return tr(
                "A web address as the redirect URL must be http://127.0.0.1:PORT/PATH, with the port your environment allows (not localhost), and no query."
            )
        }
        return tr("The redirect URL must start with io.github.portalauth.signin:// so that the browser comes back to this app.")
    }

    // MARK: Turnkey

    static func turnkeyServiceURL(_ value: String) -> String? {
        if value.isEmpty { return nil }
        switch TurnkeyConfiguration.serviceURL(value) {
        case .success: return nil
        case .failure(.notHTTPS):
            return tr("Use an https:// address. Plain http is only allowed to this computer (127.0.0.1 or localhost).")
        case .failure:
            return tr("Enter an address such as https://authproxy.turnkey.com, without a query or fragment.")
        }
    }

    static func turnkeyIdentifier(_ value: String) -> String? {
        value.isEmpty || TurnkeyConfiguration.isValidIdentifier(value) ? nil : tr("IDs and session keys have no spaces.")
    }
}
