import PortalAuth
import PortalAuthGNOME

/// The cores' log lines (which never hold a secret) on stderr, when PORTAL_AUTH_DEBUG is set.
enum DebugLog {
    static func ifRequested() -> (any AuthLogger)? { StandardErrorLog.ifRequested(program: "portal-sign-in") }
}
