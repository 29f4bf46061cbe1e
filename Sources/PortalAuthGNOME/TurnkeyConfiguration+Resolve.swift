import FoundationEssentials
import TurnkeyAuth

extension TurnkeyConfiguration {
    /// Turnkey's production services, as Turnkey's SDK has them.
    public static let defaultAuthProxyUrl = Setting.authProxyUrl.defaultValue
    /// Turnkey's production API.
    public static let defaultApiUrl = Setting.apiUrl.defaultValue

    /// An Auth Proxy config ID is known: a sign-in can work. Without one the CLI says what to set
    /// and the app opens on its set-up page.
    public var isSetUp: Bool { !authProxyConfigId.trimmed.isEmpty }

    /// Where to sign in, resolved from (highest first) command-line flags, environment variables,
    /// the app's GSettings, then Turnkey's production URLs, or the emulator's values when
    /// `EmulatorChoice` chose it. Blank values count as unset; the config ID has no default outside
    /// the emulator (`isSetUp`); the result is checked when a `TurnkeyAuth` is made from it. The names
    /// of each source are the settings table's (`Setting+Table.swift`).
    ///
    /// Each URL falls back to its own default only: an Auth Proxy URL on loopback does not move the
    /// API or the hosted pages there. With the emulator chosen, the defaults are its Auth Proxy,
    /// API, origin page and PKCE providers' pages.
    public static func resolve(
        flags: [String: String], environment: [String: String],
        settings: [String: String]
    ) -> TurnkeyConfiguration {
        func pick(_ setting: Setting) -> String? {
            setting.value(flags: flags, environment: environment, settings: settings)
        }
        let emulator = EmulatorChoice.host(flags: flags, environment: environment, settings: settings).map(EmulatorChoice.origin)
        var configuration = TurnkeyConfiguration(
            authProxyUrl: pick(.authProxyUrl)
                ?? emulator.map { $0 + TurnkeyWire.EmulatorPath.authProxyBase } ?? defaultAuthProxyUrl,
            authProxyConfigId: pick(.authProxyConfigId)
                ?? (emulator == nil ? "" : EmulatorChoice.environmentId),
            apiUrl: pick(.apiUrl)
                ?? emulator.map { $0 + TurnkeyWire.EmulatorPath.apiBase } ?? defaultApiUrl,
            organizationId: pick(.organizationId),
            defaultSessionKey: pick(.turnkeySessionKey) ?? defaultSessionKey)
        configuration.oauthOriginUrl =
            pick(.oauthOriginUrl)
            ?? emulator.map { $0 + TurnkeyWire.EmulatorPath.oauthOrigin } ?? defaultOAuthOriginUrl
        // Each PKCE provider's endpoint: its setting, the emulator's page, else the table's.
        for provider in TurnkeyProvider.allCases {
            guard let setting = Setting.authorizeUrl(provider) else { continue }
            configuration.authorizeUrls[provider] = pick(setting) ?? emulator.map { $0 + provider.signInProvider.emulatorAuthorizePath }
        }
        return configuration
    }
}
