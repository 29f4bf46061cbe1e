import FoundationEssentials
import PortalAuthGNOME
import SignInFlow
import TurnkeyAuth

/// What the window signs in to, read from the environment and GSettings each time it is asked
/// (at start, and again whenever a setting changes): the service, whether it has the ID a sign-in
/// needs, and whether it is the local test environment (the emulator) the person chose.
@MainActor
struct AppSetup {
    let backend: Backend
    /// The backend variable or setting named neither service (told on stderr).
    let warning: String?
    /// The chosen service has its ID (Portal's auth environment, Turnkey's Auth Proxy config).
    let isSetUp: Bool
    /// The emulator was chosen (PORTAL_AUTH_EMULATOR_HOST or "Local test environment"): the window says so.
    let usesEmulator: Bool
    /// Whether the choice on the set-up page can be saved: the GSettings schema is installed.
    let canSave: Bool
    /// The value of each setting the chosen service is built from, from whichever source gives it:
    /// a change elsewhere (another service's settings, a key the environment overrides) changes nothing.
    let inputs: [Setting: String]

    static func resolve() -> AppSetup {
        let environment = ProcessInfo.processInfo.environment
        let settings = SettingsLocation.read()
        let choice = BackendChoice.resolve(environment: environment, settings: settings)
        let isSetUp =
            switch choice.backend {
            case .portal: PortalConfiguration.resolve(flags: [:], environment: environment, settings: settings).isSetUp
            case .turnkey: TurnkeyConfiguration.resolve(flags: [:], environment: environment, settings: settings).isSetUp
            }
        let serves = Setting.Serves(rawValue: choice.backend.rawValue)
        var inputs: [Setting: String] = [:]
        for setting in Setting.all where setting.readBy.contains(.app) && (setting.serves == serves || setting.serves == .both) {
            inputs[setting] = setting.value(flags: [:], environment: environment, settings: settings)
        }
        return AppSetup(
            backend: choice.backend, warning: choice.warning, isSetUp: isSetUp,
            usesEmulator: EmulatorChoice.host(flags: [:], environment: environment, settings: settings) != nil,
            canSave: PreferencesWindow.schemaInstalled, inputs: inputs)
    }

    /// Whether a window built from `other` signs in differently from one built from this.
    func signsInDifferently(from other: AppSetup) -> Bool {
        backend != other.backend || inputs != other.inputs
    }

    /// The account service of the chosen backend, configured as `resolve()` found it.
    func makeService() -> any AccountService {
        switch backend {
        case .portal: AccountServices.portal()
        case .turnkey: AccountServices.turnkey()
        }
    }
}
