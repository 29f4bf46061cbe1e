import FoundationEssentials
import PortalAuthGNOME
import SignInFlow

/// The settings this run's environment gives, read with the settings table's names and the
/// resolvers' own rules: they win over anything Preferences could store, so Preferences shows
/// them locked instead of offering a choice that would change nothing.
struct EnvironmentOverrides {
    private let environment = ProcessInfo.processInfo.environment

    /// The value of a text setting, when the environment gives one.
    func value(of setting: Setting) -> String? { setting.value(environment: environment) }

    /// The service the environment chooses (a value that names neither is ignored, as the app does).
    var backend: Backend? {
        guard Setting.backend.value(environment: environment) != nil else { return nil }
        let choice = BackendChoice.resolve(environment: environment, settings: [:])
        return choice.warning == nil ? choice.backend : nil
    }

    /// Whether the environment chooses the local auth emulator (on), or nil when it leaves that to the switch.
    var emulator: Bool? {
        Setting.emulator.value(environment: environment) != nil ? true : nil
    }

    /// Whether the environment turns account abstraction on or off, or nil when it leaves that to the switch.
    var accountAbstracted: Bool? {
        PortalConfiguration.resolve(flags: [:], environment: environment, settings: [:]).isAccountAbstracted
    }
}
