import FoundationEssentials
import PortalAuth
import PortalAuthGNOME
import SignInAccounts
import SignInFlow
import TurnkeyAuth

/// The account services wired to the desktop: the cores from PortalAuthGNOME's factories (libsoup,
/// the keyring, the default browser through GIO), configured from the environment, then GSettings,
/// then the defaults.
@MainActor
enum AccountServices {
    static func portal() -> PortalAccountService {
        let desktop = Desktop()
        let configuration = PortalConfiguration.resolve(flags: [:], environment: desktop.environment, settings: desktop.settings)
        let core = Result {
            try PortalAuthFactory.make(
                configuration, logger: DebugLog.ifRequested(), transport: desktop.transport,
                browser: desktop.browser, loopback: LoopbackRedirectServer(page: loopbackPage),
                pendingSignIns: PortalPendingSignInFile(authEnvironmentId: configuration.authEnvironmentId))
        }
        // The window's own anchor replaces this one once the window exists (SignInApplication).
        return PortalAccountService(core: core, anchor: WindowlessAnchor())
    }

    static func turnkey() -> TurnkeyAccountService {
        let desktop = Desktop()
        let configuration = TurnkeyConfiguration.resolve(flags: [:], environment: desktop.environment, settings: desktop.settings)
        let core = Result {
            try TurnkeyAuthFactory.make(
                configuration, logger: DebugLog.ifRequested(), transport: desktop.transport,
                browser: desktop.browser)
        }
        return TurnkeyAccountService(core: core, refreshPolicy: RefreshPolicy(environment: desktop.environment))
    }

    /// What both backends share: the configuration's sources, one transport (the extra CA file and
    /// the request deadline) and the default browser through GIO.
    private struct Desktop {
        let environment = ProcessInfo.processInfo.environment
        let settings = SettingsLocation.read()
        let browser = GioBrowserLauncher()
        var transport: SoupTransport {
            SoupTransport(configuration: TransportConfiguration.resolve(flags: [:], environment: environment, settings: settings))
        }
    }

    /// What the browser tab shows once a loopback redirect (`http://127.0.0.1:PORT/PATH`) arrived.
    private static var loopbackPage: LoopbackRedirectServer.Page {
        // TRANSLATORS: the language code of this translation (de, fr…), for the browser page's lang attribute.
        LoopbackRedirectServer.Page(
            language: tr("en"), title: tr("Sign-in finished"),
            message: tr("You can close this tab and go back to Portal Sign-In."),
            endedTitle: tr("Sign-in ended"),
            endedMessage: tr(
                "Portal Sign-In is no longer waiting for this sign-in, so nothing was signed in. You can close this tab and start again from the app."
            ))
    }
}
