import FoundationEssentials

/// Where to sign in and how, resolved from (highest first) command-line flags, environment variables,
/// the app's GSettings, then Portal's production host, or the emulator's values when `EmulatorChoice`
/// chose it. Blank values count as unset. The auth environment ID has no default outside the
/// emulator: without one the configuration is not set up (`isSetUp`).
///
/// Keys read from each source:
/// - flags: `api-host`, `environment-id` (or `auth-environment-id`), `redirect-url`, `session-key`,
///   `account-abstracted` (`true`/`false`), `magic-link-from`, `magic-link-template`, `emulator`
/// - environment: `PORTAL_API_HOST`, `PORTAL_AUTH_ENVIRONMENT_ID`, `PORTAL_REDIRECT_URL`, `PORTAL_SESSION_KEY`,
///   `PORTAL_ACCOUNT_ABSTRACTED`, `PORTAL_MAGIC_LINK_FROM`, `PORTAL_MAGIC_LINK_TEMPLATE`, `PORTAL_AUTH_EMULATOR_HOST`
/// - settings (GSettings schema io.github.portalauth.SignIn): `api-host`, `auth-environment-id`, `redirect-url`,
///   `account-abstracted` (`true` requests it; `false` is GSettings' default and means "not set"),
///   `local-test-environment` and `emulator-host`
public struct PortalConfiguration: Sendable, Equatable {
    /// Portal's production API (https).
    public static let defaultApiHost = "api.portalhq.io"
    public static let defaultRedirectUrl = "io.github.portalauth.signin://auth/callback"
    public static let defaultSessionKey = "default"
    public static let defaultMagicLinkFromEmail = "signin@portalauth.local"
    public static let defaultMagicLinkTemplateId = "default"

    public var apiHost: String
    public var authEnvironmentId: String
    public var redirectUrl: String
    public var sessionKey: String
    /// nil: not requested (Portal's default).
    public var isAccountAbstracted: Bool?
    public var magicLinkFromEmail: String
    public var magicLinkTemplateId: String
    /// `HOST:PORT` of the local auth emulator when someone chose it (the app then says it is on a
    /// test environment); nil on the service itself.
    public var emulatorHost: String?

    /// An auth environment ID is known: a sign-in can work. Without one the CLI says what to set
    /// and the app opens on its set-up page.
    public var isSetUp: Bool { !authEnvironmentId.trimmed.isEmpty }

    public init(
        apiHost: String = defaultApiHost, authEnvironmentId: String = "",
        redirectUrl: String = defaultRedirectUrl, sessionKey: String = defaultSessionKey,
        isAccountAbstracted: Bool? = nil, magicLinkFromEmail: String = defaultMagicLinkFromEmail,
        magicLinkTemplateId: String = defaultMagicLinkTemplateId, emulatorHost: String? = nil
    ) {
        self.apiHost = apiHost
        self.authEnvironmentId = authEnvironmentId
        self.redirectUrl = redirectUrl
        self.sessionKey = sessionKey
        self.isAccountAbstracted = isAccountAbstracted
        self.magicLinkFromEmail = magicLinkFromEmail
        self.magicLinkTemplateId = magicLinkTemplateId
        self.emulatorHost = emulatorHost
    }

    public static func resolve(
        flags: [String: String], environment: [String: String],
        settings: [String: String]
    ) -> PortalConfiguration {
        func pick(_ flagKeys: [String], _ environmentKey: String, _ settingsKey: String?, _ fallback: String) -> String {
            let candidates = flagKeys.map { flags[$0] } + [environment[environmentKey], settingsKey.flatMap { settings[$0] }]
            return candidates.lazy.compactMap(nonBlank).first ?? fallback
        }
        // GSettings' boolean default is false, so only its `true` counts there.
        let accountAbstracted =
            [flags["account-abstracted"], environment["PORTAL_ACCOUNT_ABSTRACTED"]]
            .lazy.compactMap(parseBool).first
            ?? (parseBool(settings["account-abstracted"]) == true ? true : nil)
        let emulator = EmulatorChoice.host(flags: flags, environment: environment, settings: settings)

        return PortalConfiguration(
            apiHost: pick(["api-host"], "PORTAL_API_HOST", "api-host", emulator ?? defaultApiHost),
            authEnvironmentId: pick(
                ["environment-id", "auth-environment-id"], "PORTAL_AUTH_ENVIRONMENT_ID",
                "auth-environment-id", emulator == nil ? "" : EmulatorChoice.environmentId),
            redirectUrl: pick(["redirect-url"], "PORTAL_REDIRECT_URL", "redirect-url", defaultRedirectUrl),
            sessionKey: pick(["session-key"], "PORTAL_SESSION_KEY", nil, defaultSessionKey),
            isAccountAbstracted: accountAbstracted,
            magicLinkFromEmail: pick(["magic-link-from"], "PORTAL_MAGIC_LINK_FROM", nil, defaultMagicLinkFromEmail),
            magicLinkTemplateId: pick(["magic-link-template"], "PORTAL_MAGIC_LINK_TEMPLATE", nil, defaultMagicLinkTemplateId),
            emulatorHost: emulator)
    }
}

private func nonBlank(_ value: String?) -> String? {
    guard let trimmed = value?.trimmed, !trimmed.isEmpty else { return nil }
    return trimmed
}

private func parseBool(_ value: String?) -> Bool? {
    switch nonBlank(value)?.lowercased() {
    case "true", "1", "yes", "on": return true
    case "false", "0", "no", "off": return false
    default: return nil
    }
}
