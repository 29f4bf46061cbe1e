import FoundationEssentials
import AuthPlatform
import PortalAuth
import SignInAccounts
import SignInFlow
import TurnkeyAuth

/// The account services wired to the desktop: the cores from AuthPlatform's factories (libsoup,
/// the keyring, the default browser through GIO), configured from the environment, then GSettings,
/// then the defaults.
@MainActor
enum AccountServices {
    static func portal() -> PortalAccountService {
        let environment = ProcessInfo.processInfo.environment, settings = SettingsLocation.read()
        let configuration = PortalConfiguration.resolve(flags: [:], environment: environment, settings: settings)
        let transport = TransportConfiguration.resolve(flags: [:], environment: environment, settings: settings)
        let browser = RememberingBrowser(GioBrowserLauncher())
        let core = Result {
            try PortalAuthFactory.make(configuration, logger: DebugLog.ifRequested(), transport: SoupTransport(configuration: transport),
                                       browser: browser, loopback: LoopbackRedirectServer(page: loopbackPage),
                                       pendingSignIns: PendingSignInFile(authEnvironmentId: configuration.authEnvironmentId))
        }
        return PortalAccountService(core: core, browser: browser, desktop: DesktopAccountSupport())
    }

    static func turnkey() -> TurnkeyAccountService {
        let environment = ProcessInfo.processInfo.environment, settings = SettingsLocation.read()
        let configuration = TurnkeyConfiguration.resolve(flags: [:], environment: environment, settings: settings)
        let transport = TransportConfiguration.resolve(flags: [:], environment: environment, settings: settings)
        let browser = RememberingBrowser(GioBrowserLauncher())
        let core = Result {
            try TurnkeyAuthFactory.make(configuration, logger: DebugLog.ifRequested(),
                                        transport: SoupTransport(configuration: transport), browser: browser)
        }
        return TurnkeyAccountService(core: core, browser: browser, desktop: DesktopAccountSupport(),
                                     refreshPolicy: RefreshPolicy(environment: environment), providerName: BrandButton.name)
    }

    /// What the browser tab shows once a loopback redirect (`http://127.0.0.1:PORT/PATH`) arrived.
    private static var loopbackPage: LoopbackRedirectServer.Page {
        // TRANSLATORS: the language code of this translation (de, fr…), for the browser page's lang attribute.
        LoopbackRedirectServer.Page(language: tr("en"), title: tr("Sign-in finished"),
                                    message: tr("You can close this tab and go back to Portal Sign-In."))
    }
}
