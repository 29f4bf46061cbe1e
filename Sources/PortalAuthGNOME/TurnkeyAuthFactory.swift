import FoundationEssentials
import TurnkeyAuth

/// Builds a `TurnkeyAuth` wired to the desktop: libsoup for HTTP, GNOME Keyring for sessions, keys
/// and pending sign-ins, libcrypto for P-256 and SHA-256, the default browser through GIO.
public enum TurnkeyAuthFactory {
    /// A `TurnkeyAuth` for `configuration`, with libcrypto and the keyring's stores unless `stores`
    /// says otherwise.
    /// - Throws: `TurnkeyAuthError.invalidConfiguration(field:problem:)` naming the first field that is
    ///   blank or not valid.
    public static func make(
        _ configuration: TurnkeyConfiguration,
        logger: (any AuthLogger)? = nil, transport: any HTTPTransport = SoupTransport(),
        browser: any BrowserLauncher = GioBrowserLauncher(),
        stores: TurnkeyStores = .keyring()
    ) throws -> TurnkeyAuth {
        try TurnkeyAuth(
            configuration: configuration, transport: transport, stores: stores, crypto: LibcryptoProvider(),
            browser: browser, logger: logger)
    }
}
