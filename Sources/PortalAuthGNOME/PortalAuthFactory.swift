import FoundationEssentials
import PortalAuth

/// Builds the desktop's `PortalAuth` (`PortalAuth(authEnvironmentId:redirectUrl:…)`) from a resolved
/// `PortalConfiguration`, as the app and the CLI do.
public enum PortalAuthFactory {
    /// A `PortalAuth` for `configuration`, its session in the keyring under `configuration.sessionKey`.
    /// Pass a fake `transport`, `browser` or `loopback` to test an app without the desktop.
    /// - Throws: `PortalAuthError.invalidArgument(name:)` for a blank Auth Environment ID or redirect
    ///   URL, or an API host that is malformed or plain `http` to a host other than loopback.
    public static func make(
        _ configuration: PortalConfiguration,
        logger: (any PortalAuthLogger)? = nil,
        transport: any HTTPTransport = SoupTransport(),
        browser: any BrowserLauncher = GioBrowserLauncher(),
        loopback: any LoopbackRedirectListening = LoopbackRedirectServer(),
        pendingSignIns: any PortalPendingSignInStore = InMemoryPortalPendingSignInStore()
    ) throws -> PortalAuth {
        try PortalAuth(
            authEnvironmentId: configuration.authEnvironmentId, redirectUrl: configuration.redirectUrl,
            apiHost: configuration.apiHost,
            magicLink: MagicLinkConfig(fromEmail: configuration.magicLinkFromEmail, templateId: configuration.magicLinkTemplateId),
            isAccountAbstracted: configuration.isAccountAbstracted, sessionKey: configuration.sessionKey, logger: logger,
            transport: transport, browser: browser, loopback: loopback, pendingSignIns: pendingSignIns)
    }
}
