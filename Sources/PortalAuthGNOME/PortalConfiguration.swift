import AuthBase
import FoundationEssentials

/// Where to sign in and how, resolved from (highest first) command-line flags, environment variables,
/// the app's GSettings, then Portal's production host, or the emulator's values when `EmulatorChoice`
/// chose it. Blank values count as unset. The auth environment ID has no default outside the
/// emulator: without one the configuration is not set up (`isSetUp`). The names of each source are
/// the settings table's (`Setting+Table.swift`).
public struct PortalConfiguration: Sendable, Equatable {
    /// Portal's production API (https).
    public static let defaultApiHost = Setting.apiHost.defaultValue
    /// The Portal Sign-In app's redirect URL, `io.github.portalauth.signin://auth/callback`.
    public static let defaultRedirectUrl = Setting.redirectUrl.defaultValue
    /// The session key when none is configured: `default`.
    public static let defaultSessionKey = Setting.portalSessionKey.defaultValue
    /// The sender of Portal's magic-link emails when none is configured.
    public static let defaultMagicLinkFromEmail = Setting.magicLinkFrom.defaultValue
    /// The magic-link email template when none is configured.
    public static let defaultMagicLinkTemplateId = Setting.magicLinkTemplate.defaultValue

    /// Portal's API host (`api.portalhq.io`, or the emulator's `HOST:PORT`).
    public var apiHost: String
    /// The Auth Environment ID from Portal's dashboard; empty when not set up.
    public var authEnvironmentId: String
    /// Where Portal sends the browser back to: the app's custom scheme, or a loopback
    /// `http://127.0.0.1:PORT/PATH`. It must be on the environment's allow list.
    public var redirectUrl: String
    /// The name the session is kept under in the keyring (`default`), to keep several apart.
    public var sessionKey: String
    /// nil: not requested (Portal's default).
    public var isAccountAbstracted: Bool?
    /// The sender address of magic-link emails (`MagicLinkConfig.fromEmail`).
    public var magicLinkFromEmail: String
    /// The email template of magic links (`MagicLinkConfig.templateId`).
    public var magicLinkTemplateId: String
    /// `HOST:PORT` of the local auth emulator when someone chose it (the app then says it is on a
    /// test environment); nil on the service itself.
    public var emulatorHost: String?

    /// An auth environment ID is known: a sign-in can work. Without one the CLI says what to set
    /// and the app opens on its set-up page.
    public var isSetUp: Bool { !authEnvironmentId.trimmed.isEmpty }

    /// A configuration with every value given; what is left out is Portal's default.
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

    /// The configuration from (highest first) `flags` (the CLI's), `environment` (`PORTAL_AUTH_ENVIRONMENT_ID`,
    /// `PORTAL_REDIRECT_URL`, `PORTAL_AUTH_EMULATOR_HOST`, …) and `settings` (the app's GSettings keys),
    /// then the defaults. Pass `[:]` for a source the program does not have.
    public static func resolve(
        flags: [String: String], environment: [String: String],
        settings: [String: String]
    ) -> PortalConfiguration {
        func pick(_ setting: Setting, _ fallback: String) -> String {
            setting.value(flags: flags, environment: environment, settings: settings) ?? fallback
        }
        // A value that is neither true nor false is skipped; GSettings' switch counts only when on.
        let accountAbstracted = Setting.accountAbstracted.givenValues(flags: flags, environment: environment, settings: settings)
            .lazy.compactMap { parseBool($0.value) }.first
        let emulator = EmulatorChoice.host(flags: flags, environment: environment, settings: settings)

        return PortalConfiguration(
            apiHost: pick(.apiHost, emulator ?? defaultApiHost),
            authEnvironmentId: pick(.authEnvironmentId, emulator == nil ? "" : EmulatorChoice.environmentId),
            redirectUrl: pick(.redirectUrl, defaultRedirectUrl),
            sessionKey: pick(.portalSessionKey, defaultSessionKey),
            isAccountAbstracted: accountAbstracted,
            magicLinkFromEmail: pick(.magicLinkFrom, defaultMagicLinkFromEmail),
            magicLinkTemplateId: pick(.magicLinkTemplate, defaultMagicLinkTemplateId),
            emulatorHost: emulator)
    }
}

private func parseBool(_ value: String) -> Bool? {
    switch value.lowercased() {
    case "true", "1", "yes", "on": return true
    case "false", "0", "no", "off": return false
    default: return nil
    }
}
