import FoundationEssentials
import TurnkeyAuth

extension TurnkeyContext {
    /// Keeps the configuration `shared` is made from, wired to the desktop (`Services.gnome()`):
    /// the seed page's `TurnkeyContext.configure(config)` on Linux.
    public static func configure(_ config: TurnkeyConfig) {
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
