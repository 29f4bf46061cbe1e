import FoundationEssentials
import GLibSupport
import PortalAuth

extension PortalAuth {
    /// Portal's client auth on the Linux desktop, as `PortalAuth(authEnvironmentId:redirectUrl:)` is
    /// on iOS: the session in the login keyring (GNOME Keyring, KWallet, KeePassXC; the Secret portal
    /// inside Flatpak), HTTP through libsoup, the default browser through GIO (the OpenURI portal
    /// inside Flatpak), and a listener on 127.0.0.1 when `redirectUrl` is a loopback URL
    /// (`http://127.0.0.1:PORT/PATH`). No I/O happens until a method is called.
    ///
    /// Hold one long-lived instance, call `setAuthPresentationAnchor(_:)` with your window before
    /// `signInWith*`, and forward each URL the desktop opens your app with to `handleRedirect`.
    ///
    /// - Parameters:
    ///   - authEnvironmentId: Your auth environment's ID (Portal dashboard); the stored session is kept under it.
    ///   - redirectUrl: Your app's registered redirect, such as `myapp://auth/callback`, stored trimmed;
    ///     Portal compares it byte for byte with the environment's allow list.
    ///   - apiHost: Portal's API host; `http://` is used only for `localhost` and `127.0.0.1`. Left at
    ///     Portal's own, it is the local emulator's when `PORTAL_AUTH_EMULATOR_HOST` chooses one.
    ///   - magicLink: The sender and template of sign-in emails; without it `sendMagicLink` throws
    ///     `magicLinkNotConfigured`.
    ///   - isAccountAbstracted: Asks Portal for an account-abstracted client; nil leaves it to Portal.
    ///   - sessionKey: Keeps this app's keyring item apart from another's on the same environment.
    ///   - logger: Receives redacted log lines; nil logs nothing.
    ///   - transport, browser, loopback, pendingSignIns: Replace one desktop part (for example a
    ///     transport with an extra CA file); the defaults are the desktop's.
    /// - Throws: `PortalAuthError.invalidArgument(name:)` for a blank `authEnvironmentId` (checked
    ///   first), a blank `redirectUrl`, or a bad `apiHost`.
    public convenience init(
        authEnvironmentId: String, redirectUrl: String, apiHost: String = "api.portalhq.io",
        magicLink: MagicLinkConfig? = nil, isAccountAbstracted: Bool? = nil,
        sessionKey: String = KeyringPortalSessionStore.defaultSessionKey,
        logger: (any PortalAuthLogger)? = nil,
        transport: any HTTPTransport = SoupTransport(),
        browser: any BrowserLauncher = GioBrowserLauncher(),
        loopback: any LoopbackRedirectListening = LoopbackRedirectServer(),
        pendingSignIns: any PortalPendingSignInStore = InMemoryPortalPendingSignInStore()
    ) throws {
        // `Task { @MainActor in … }` runs under g_application_run only with Swift's main queue driven
        // from GLib's loop; a GTK app that uses this initialiser gets that without asking.
        MainLoopBridge.attach()
        try self.init(
            authEnvironmentId: authEnvironmentId, redirectUrl: redirectUrl,
            apiHost: EmulatorChoice.inPlaceOfProduction(apiHost, production: "api.portalhq.io") { $0 },
            magicLink: magicLink, isAccountAbstracted: isAccountAbstracted,
            transport: transport, sessionStore: KeyringPortalSessionStore(sessionKey: sessionKey),
            browser: browser, loopback: loopback, logger: logger, pendingSignIns: pendingSignIns)
    }
}
