import FoundationEssentials
import TurnkeyAuth

extension TurnkeyConfiguration {
    /// Turnkey's production services, as Turnkey's SDK has them.
    public static let defaultAuthProxyUrl = "https://authproxy.turnkey.com"
    public static let defaultApiUrl = "https://api.turnkey.com"

    /// The GSettings keys (schema io.github.portalauth.SignIn) the app passes in `settings`.
    public enum SettingsKey {
        public static let authProxyUrl = "turnkey-auth-proxy-url"
        public static let authProxyConfigId = "turnkey-auth-proxy-config-id"
        public static let apiUrl = "turnkey-api-url"
        public static let organizationId = "turnkey-organization-id"
        public static let sessionKey = "turnkey-session-key"
    }

    /// An Auth Proxy config ID is known: a sign-in can work. Without one the CLI says what to set
    /// and the app opens on its set-up page.
    public var isSetUp: Bool { !authProxyConfigId.trimmed.isEmpty }

    /// Where to sign in, resolved from (highest first) command-line flags, environment variables,
    /// the app's GSettings, then Turnkey's production URLs, or the emulator's values when
    /// `EmulatorChoice` chose it. Blank values count as unset; the config ID has no default outside
    /// the emulator (`isSetUp`); the result is checked when a `TurnkeyAuth` is made from it.
    ///
    /// - flags: `auth-proxy-url`, `auth-proxy-config-id`, `api-url`, `organization-id`, `session-key`, `emulator`
    /// - environment: `TURNKEY_AUTH_PROXY_URL`, `TURNKEY_AUTH_PROXY_CONFIG_ID`, `TURNKEY_API_URL`,
    ///   `TURNKEY_ORGANIZATION_ID`, `TURNKEY_SESSION_KEY`, `PORTAL_AUTH_EMULATOR_HOST`; and
    ///   `TURNKEY_OAUTH_ORIGIN_URL`, and per PKCE provider `TURNKEY_<PROVIDER>_AUTHORIZE_URL`
    /// - settings: `SettingsKey`, and `EmulatorChoice.SettingsKey`
    ///
    /// Each URL falls back to its own default only: an Auth Proxy URL on loopback does not move the
    /// API or the hosted pages there. With the emulator chosen, the defaults are its Auth Proxy,
    /// API, origin page and PKCE providers' pages.
    public static func resolve(
        flags: [String: String], environment: [String: String],
        settings: [String: String]
    ) -> TurnkeyConfiguration {
        func pick(_ flag: String?, _ variable: String, _ setting: String?) -> String? {
            [flag.flatMap { flags[$0] }, environment[variable], setting.flatMap { settings[$0] }].lazy.compactMap { $0?.nonBlank }.first
        }
        let emulator = EmulatorChoice.host(flags: flags, environment: environment, settings: settings).map(EmulatorChoice.origin)
        var configuration = TurnkeyConfiguration(
            authProxyUrl: pick("auth-proxy-url", "TURNKEY_AUTH_PROXY_URL", SettingsKey.authProxyUrl)
                ?? emulator.map { $0 + TurnkeyWire.EmulatorPath.authProxyBase } ?? defaultAuthProxyUrl,
            authProxyConfigId: pick("auth-proxy-config-id", "TURNKEY_AUTH_PROXY_CONFIG_ID", SettingsKey.authProxyConfigId)
                ?? (emulator == nil ? "" : EmulatorChoice.environmentId),
            apiUrl: pick("api-url", "TURNKEY_API_URL", SettingsKey.apiUrl)
                ?? emulator.map { $0 + TurnkeyWire.EmulatorPath.apiBase } ?? defaultApiUrl,
            organizationId: pick("organization-id", "TURNKEY_ORGANIZATION_ID", SettingsKey.organizationId),
            defaultSessionKey: pick("session-key", "TURNKEY_SESSION_KEY", SettingsKey.sessionKey) ?? defaultSessionKey)
        configuration.oauthOriginUrl =
            pick(nil, "TURNKEY_OAUTH_ORIGIN_URL", nil)
            ?? emulator.map { $0 + TurnkeyWire.EmulatorPath.oauthOrigin } ?? defaultOAuthOriginUrl
        // Each PKCE provider's endpoint: its variable, the emulator's page, else the table's.
        for provider in TurnkeyProvider.allCases {
            guard let variable = provider.authorizeUrlVariable else { continue }
            configuration.authorizeUrls[provider] =
                pick(nil, variable, nil) ?? emulator.map { $0 + provider.signInProvider.emulatorAuthorizePath }
        }
        return configuration
    }
}

extension TurnkeyProvider {
    /// The environment variable that names another authorize endpoint for a PKCE provider
    /// (`TURNKEY_DISCORD_AUTHORIZE_URL`); nil for the others.
    public var authorizeUrlVariable: String? {
        usesPKCE ? "TURNKEY_\(rawValue.uppercased())_AUTHORIZE_URL" : nil
    }
}
