import FoundationEssentials
import GLibSupport
import TurnkeyAuth

extension TurnkeyContext {
    /// Keeps the configuration `shared` is made from, wired to the desktop (`Services.gnome()`):
    /// the seed page's `TurnkeyContext.configure(config)` on Linux. When `PORTAL_AUTH_EMULATOR_HOST`
    /// chooses the local emulator, an `apiUrl` or `authProxyUrl` left at Turnkey's production
    /// address is the emulator's.
    public static func configure(_ config: TurnkeyConfig) {
        // `Task { @MainActor in … }` runs under g_application_run only with Swift's main queue driven
        // from GLib's loop; a GTK app that configures Turnkey here gets that without asking.
        MainLoopBridge.attach()
        var config = config
        config.apiUrl = EmulatorChoice.inPlaceOfProduction(config.apiUrl, production: TurnkeyConfig.defaultApiUrl) {
            EmulatorChoice.origin(of: $0) + TurnkeyWire.EmulatorPath.apiBase
        }
        config.authProxyUrl = EmulatorChoice.inPlaceOfProduction(config.authProxyUrl, production: TurnkeyConfig.defaultAuthProxyUrl) {
            EmulatorChoice.origin(of: $0) + TurnkeyWire.EmulatorPath.authProxyBase
        }
        configure(config, services: .gnome())
    }
}

extension TurnkeyContext.Services {
    /// The desktop's pieces, as `TurnkeyAuthFactory` wires them: libsoup for HTTP, GNOME Keyring for
    /// sessions, keys and pending sign-ins, libcrypto, the default browser through GIO (the OpenURI
    /// portal in a sandbox). When the emulator was chosen (`PORTAL_AUTH_EMULATOR_HOST`), the hosted
    /// origin page and the Discord and X pages are the emulator's; the config's URLs stay as written.
    public static func gnome(
        logger: (any AuthLogger)? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> TurnkeyContext.Services {
        let emulator = EmulatorChoice.host(flags: [:], environment: environment, settings: [:]).map(EmulatorChoice.origin)
        var authorizeUrls: [TurnkeyProvider: String] = [:]
        if let emulator {
            for provider in TurnkeyProvider.allCases where provider.usesPKCE {
                authorizeUrls[provider] = emulator + provider.signInProvider.emulatorAuthorizePath
            }
        }
        return TurnkeyContext.Services(
            transport: SoupTransport(), stores: .keyring(), crypto: LibcryptoProvider(), browser: GioBrowserLauncher(),
            logger: logger, oauthOriginUrl: emulator.map { $0 + TurnkeyWire.EmulatorPath.oauthOrigin },
            authorizeUrls: authorizeUrls)
    }
}
