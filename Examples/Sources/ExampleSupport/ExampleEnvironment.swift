import FoundationEssentials
import Glibc
import PortalAuthGNOME

/// Where the examples' settings come from: the values a real app compiles in (its auth environment,
/// redirect URL, Auth Proxy config), read here from the environment so one build runs against your
/// Portal or Turnkey and against the local emulator (`PORTAL_AUTH_EMULATOR_HOST=127.0.0.1:8790`,
/// whose defaults are the fallbacks).
public enum ExampleEnvironment {
    public static func value(_ name: String, or fallback: String) -> String {
        guard let value = getenv(name) else { return fallback }
        return String(cString: value)
    }

    /// Portal's `PortalAuth` for the examples: `PORTAL_AUTH_ENVIRONMENT_ID` (the emulator's
    /// `local-dev`), `PORTAL_REDIRECT_URL` (a loopback redirect on any free port, received in-process).
    public static func portalAuth() throws -> PortalAuth {
        try PortalAuth(
            authEnvironmentId: value("PORTAL_AUTH_ENVIRONMENT_ID", or: "local-dev"),
            redirectUrl: value("PORTAL_REDIRECT_URL", or: "http://127.0.0.1:0/auth/callback"))
    }
}
