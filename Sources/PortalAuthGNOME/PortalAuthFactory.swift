import FoundationEssentials
import PortalAuth

/// Builds a `PortalAuth` wired to the desktop: libsoup for HTTP, GNOME Keyring for the session,
/// the default browser through GIO.
public enum PortalAuthFactory {
    public static func make(_ configuration: PortalConfiguration, redirects: (any RedirectSource)? = nil,
                            logger: (any PortalAuthLogger)? = nil,
                            transport: any HTTPTransport = SoupTransport()) throws -> PortalAuth {
        try PortalAuth(
            authEnvironmentId: configuration.authEnvironmentId,
            redirectUrl: configuration.redirectUrl,
            apiHost: configuration.apiHost,
            magicLink: MagicLinkConfig(fromEmail: configuration.magicLinkFromEmail,
                                       templateId: configuration.magicLinkTemplateId),
            isAccountAbstracted: configuration.isAccountAbstracted,
            transport: transport,
            sessionStore: KeyringSessionStore(sessionKey: configuration.sessionKey),
            browser: GioBrowserLauncher(),
            redirects: redirects,
            logger: logger)
    }
}
