import TurnkeyAuth

/// The settings table: each setting of the app and the CLI, once. Precedence is DESIGN.md's: the
/// flag, then the variable (then its older names), then GSettings (the user's value, then a
/// packager's vendor override), then the default; with the emulator chosen, its values stand in for
/// the services' defaults. Variables that serve both backends are named `PORTAL_AUTH_…`.
extension Setting {
    /// Every setting, in the order the help and the docs list them.
    package static let all: [Setting] =
        [
            backend, authEnvironmentId, apiHost, redirectUrl, portalSessionKey, accountAbstracted, magicLinkFrom,
            magicLinkTemplate, authProxyConfigId, authProxyUrl, apiUrl, organizationId, turnkeySessionKey, oauthOriginUrl
        ] + TurnkeyProvider.allCases.compactMap(authorizeUrl) + [caFile, httpTimeoutSeconds, debug, emulator, emulatorHost]

    // MARK: Which service

    package static let backend = Setting(
        variable: "PORTAL_SIGN_IN_BACKEND", settingsKey: "backend", valueName: "portal|turnkey", default: "portal",
        serves: .both, readBy: .app, summary: "Which service the app signs in to: portal or turnkey")

    // MARK: Portal

    package static let authEnvironmentId = Setting(
        flag: "environment-id", variable: "PORTAL_AUTH_ENVIRONMENT_ID", settingsKey: "auth-environment-id", valueName: "ID",
        default: .none("none, required"), serves: .portal,
        summary: "The Portal auth environment to sign in to")
    package static let apiHost = Setting(
        flag: "api-host", variable: "PORTAL_API_HOST", settingsKey: "api-host", valueName: "HOST", default: "api.portalhq.io",
        serves: .portal, summary: "Portal's API host (and port), over https; plain http only to localhost and 127.0.0.1")
    package static let redirectUrl = Setting(
        flag: "redirect-url", variable: "PORTAL_REDIRECT_URL", settingsKey: "redirect-url", valueName: "URL",
        default: "io.github.portalauth.signin://auth/callback", serves: .portal,
        summary: "Where the sign-in comes back: the app's scheme, or http://127.0.0.1:PORT/PATH")
    package static let portalSessionKey = Setting(
        flag: "session-key", variable: "PORTAL_SESSION_KEY", valueName: "KEY", default: "default", serves: .portal,
        summary: "The name the session is kept under, to keep several sessions apart")
    package static let accountAbstracted = Setting(
        variable: "PORTAL_ACCOUNT_ABSTRACTED", settingsKey: "account-abstracted", kind: .boolean, valueName: "true|false",
        default: .none("not requested"), serves: .portal,
        summary: "Ask Portal for account-abstracted wallets (if the auth environment supports them)")
    package static let magicLinkFrom = Setting(
        variable: "PORTAL_MAGIC_LINK_FROM", valueName: "EMAIL", default: "signin@portalauth.local", serves: .portal,
        summary: "The sender of sign-in link emails")
    package static let magicLinkTemplate = Setting(
        variable: "PORTAL_MAGIC_LINK_TEMPLATE", valueName: "ID", default: "default", serves: .portal,
        summary: "The email template of sign-in links")

    // MARK: Turnkey

    package static let authProxyConfigId = Setting(
        flag: "auth-proxy-config-id", variable: "TURNKEY_AUTH_PROXY_CONFIG_ID", settingsKey: "turnkey-auth-proxy-config-id",
        valueName: "ID", default: .none("none, required"), serves: .turnkey,
        summary: "The Auth Proxy configuration of your Turnkey organization")
    package static let authProxyUrl = Setting(
        flag: "auth-proxy-url", variable: "TURNKEY_AUTH_PROXY_URL", settingsKey: "turnkey-auth-proxy-url", valueName: "URL",
        default: "https://authproxy.turnkey.com", serves: .turnkey, summary: "Turnkey's Auth Proxy")
    package static let apiUrl = Setting(
        flag: "api-url", variable: "TURNKEY_API_URL", settingsKey: "turnkey-api-url", valueName: "URL",
        default: "https://api.turnkey.com", serves: .turnkey,
        summary: "Turnkey's API; it never follows the Auth Proxy to another host")
    package static let organizationId = Setting(
        flag: "organization-id", variable: "TURNKEY_ORGANIZATION_ID", settingsKey: "turnkey-organization-id",
        valueName: "ID", default: .none("the Auth Proxy configuration's"), serves: .turnkey,
        summary: "The parent organization users sign in under")
    package static let turnkeySessionKey = Setting(
        flag: "session-key", variable: "TURNKEY_SESSION_KEY", settingsKey: "turnkey-session-key", valueName: "KEY",
        default: "default", serves: .turnkey, summary: "The name the first session is kept under")
    package static let oauthOriginUrl = Setting(
        variable: "TURNKEY_OAUTH_ORIGIN_URL", valueName: "URL", default: .value(TurnkeyConfiguration.defaultOAuthOriginUrl),
        serves: .turnkey, summary: "Turnkey's hosted page that starts a Google or Apple sign-in")
    /// A PKCE provider's authorize page (`TURNKEY_DISCORD_AUTHORIZE_URL`): one for each provider
    /// whose Turnkey flow is PKCE in the provider table, its default the row's; nil for the others.
    package static func authorizeUrl(_ provider: TurnkeyProvider) -> Setting? {
        guard let url = provider.defaultAuthorizeUrl else { return nil }
        return Setting(
            variable: "TURNKEY_\(provider.rawValue.uppercased())_AUTHORIZE_URL", valueName: "URL", default: .value(url),
            serves: .turnkey, summary: "\(provider.displayName)'s authorize page")
    }

    // MARK: Both backends

    package static let caFile = Setting(
        flag: "ca-file", variable: "PORTAL_AUTH_CA_FILE", aliases: ["PORTAL_CA_FILE"], settingsKey: "ca-file",
        valueName: "FILE", default: .none("the system's authorities alone"), serves: .both,
        summary: "PEM certificate authorities trusted in addition to the system's, for a self-hosted or company backend")
    package static let httpTimeoutSeconds = Setting(
        variable: "PORTAL_AUTH_HTTP_TIMEOUT_SECONDS", aliases: ["PORTAL_HTTP_TIMEOUT_SECONDS"], valueName: "SECONDS",
        default: "30", serves: .both, summary: "How long each request may take as a whole (1 to 86400 seconds)")
    package static let debug = Setting(
        variable: "PORTAL_AUTH_DEBUG", aliases: ["PORTAL_DEBUG"], valueName: "1", default: .none("off"), serves: .both,
        summary: "Any value logs what the client does on stderr (never a secret)")
    package static let emulator = Setting(
        flag: "emulator", variable: "PORTAL_AUTH_EMULATOR_HOST", settingsKey: "local-test-environment", kind: .boolean,
        valueName: "HOST:PORT", default: .none("not chosen"), serves: .both,
        summary: "Use the local auth emulator and its defaults (environment and config local-dev); values set still win")
    package static let emulatorHost = Setting(
        settingsKey: "emulator-host", valueName: "HOST:PORT", default: "127.0.0.1:8790", serves: .both, readBy: .app,
        summary: "Where the emulator the local-test-environment switch chooses listens")
}
