import FoundationEssentials
import TurnkeyAuth

extension TurnkeyConfiguration {
    public static let emulatorAuthProxyUrl = "http://127.0.0.1:8790/turnkey/auth-proxy"
    public static let emulatorAuthProxyConfigId = "local-dev"
    public static let emulatorApiUrl = "http://127.0.0.1:8790/turnkey/api"

    /// The GSettings keys (schema io.github.portalauth.SignIn) the app passes in `settings`.
    public enum SettingsKey {
        public static let authProxyUrl = "turnkey-auth-proxy-url"
        public static let authProxyConfigId = "turnkey-auth-proxy-config-id"
        public static let apiUrl = "turnkey-api-url"
        public static let organizationId = "turnkey-organization-id"
        public static let sessionKey = "turnkey-session-key"
    }

    /// Where to sign in, resolved from (highest first) command-line flags, environment variables,
    /// the app's GSettings, then the local emulator's defaults. Blank values count as unset; the
    /// result is checked when a `TurnkeyAuth` is made from it.
    ///
    /// - flags: `auth-proxy-url`, `auth-proxy-config-id`, `api-url`, `organization-id`, `session-key`
    /// - environment: `TURNKEY_AUTH_PROXY_URL`, `TURNKEY_AUTH_PROXY_CONFIG_ID`, `TURNKEY_API_URL`,
    ///   `TURNKEY_ORGANIZATION_ID`, `TURNKEY_SESSION_KEY`; and `TURNKEY_OAUTH_ORIGIN_URL`,
    ///   `TURNKEY_DISCORD_AUTHORIZE_URL`, `TURNKEY_X_AUTHORIZE_URL`
    /// - settings: `SettingsKey`
    ///
    /// When the Auth Proxy is on loopback (the emulator), the origin page, the Discord and X
    /// authorize pages and an unset API URL are the emulator's on the same origin.
    public static func resolve(flags: [String: String], environment: [String: String],
                               settings: [String: String]) -> TurnkeyConfiguration {
        func pick(_ flag: String?, _ variable: String, _ setting: String?) -> String? {
            [flag.flatMap { flags[$0] }, environment[variable], setting.flatMap { settings[$0] }].lazy.compactMap { $0?.nonBlank }.first
        }
        let authProxyUrl = pick("auth-proxy-url", "TURNKEY_AUTH_PROXY_URL", SettingsKey.authProxyUrl) ?? emulatorAuthProxyUrl
        let emulator = emulatorOrigin(of: authProxyUrl)
        var configuration = TurnkeyConfiguration(
            authProxyUrl: authProxyUrl,
            authProxyConfigId: pick("auth-proxy-config-id", "TURNKEY_AUTH_PROXY_CONFIG_ID", SettingsKey.authProxyConfigId)
                ?? emulatorAuthProxyConfigId,
            apiUrl: pick("api-url", "TURNKEY_API_URL", SettingsKey.apiUrl)
                ?? emulator.map { $0 + TurnkeyWire.EmulatorPath.apiBase } ?? emulatorApiUrl,
            organizationId: pick("organization-id", "TURNKEY_ORGANIZATION_ID", SettingsKey.organizationId),
            defaultSessionKey: pick("session-key", "TURNKEY_SESSION_KEY", SettingsKey.sessionKey) ?? defaultSessionKey)
        configuration.oauthOriginUrl = pick(nil, "TURNKEY_OAUTH_ORIGIN_URL", nil)
            ?? emulator.map { $0 + TurnkeyWire.EmulatorPath.oauthOrigin } ?? defaultOAuthOriginUrl
        configuration.discordAuthorizeUrl = pick(nil, "TURNKEY_DISCORD_AUTHORIZE_URL", nil)
            ?? emulator.map { $0 + "/idp/discord/authorize" } ?? defaultDiscordAuthorizeUrl
        configuration.xAuthorizeUrl = pick(nil, "TURNKEY_X_AUTHORIZE_URL", nil)
            ?? emulator.map { $0 + "/idp/x/authorize" } ?? defaultXAuthorizeUrl
        return configuration
    }

    /// `scheme://host[:port]` of a loopback URL (the emulator), or nil for any other host.
    static func emulatorOrigin(of url: String) -> String? {
        guard let components = URLComponents(string: url.trimmed),
              let scheme = components.scheme, let host = components.host, Loopback.isLoopbackHost(host) else { return nil }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }
}
