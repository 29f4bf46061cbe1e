import AuthBase
import FoundationEssentials

/// The local auth emulator, used only when someone chooses it (`Setting.emulator`): the CLI's
/// `--emulator[=HOST:PORT]`, then `PORTAL_AUTH_EMULATOR_HOST=HOST:PORT`, then the app's GSettings
/// `local-test-environment` (its host in `emulator-host`). When chosen, the emulator's values take
/// the place of each service's production defaults, for Portal and Turnkey alike; a value set
/// explicitly (a flag, a variable, a setting) still wins. Nothing chooses it by default: an
/// install with no configuration never opens a connection to the emulator's port.
package enum EmulatorChoice {
    package static let defaultHost = Setting.emulatorHost.defaultValue
    /// The emulator's auth environment (Portal) and Auth Proxy config (Turnkey).
    package static let environmentId = "local-dev"

    /// `HOST:PORT` (or `https://HOST:PORT`) of the chosen emulator, or nil when nobody chose it. Blank values count as unset.
    package static func host(flags: [String: String], environment: [String: String], settings: [String: String]) -> String? {
        if let host = Setting.emulator.value(flags: flags, environment: environment, settings: [:]) { return host }
        guard Setting.emulator.value(flags: [:], environment: [:], settings: settings) != nil else { return nil }
        return Setting.emulatorHost.value(flags: [:], environment: [:], settings: settings) ?? defaultHost
    }

    /// For an app that uses the libraries' desktop initialisers: `value`, unless it is the service's
    /// production default and `PORTAL_AUTH_EMULATOR_HOST` chooses an emulator, whose `emulatorValue`
    /// (of its host) then takes its place, as the app and the CLI resolve it.
    static func inPlaceOfProduction(
        _ value: String, production: String, environment: [String: String] = ProcessInfo.processInfo.environment,
        emulatorValue: (String) -> String
    ) -> String {
        guard value == production, let host = host(flags: [:], environment: environment, settings: [:]) else { return value }
        return emulatorValue(host)
    }

    /// The emulator's origin: `http://HOST:PORT` (it speaks plain http on this computer), or the
    /// host as written when it already names a scheme (an emulator serving https in a test).
    package static func origin(of host: String) -> String {
        var host = host.trimmed
        while host.hasSuffix("/") { host.removeLast() }
        let lowered = host.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://") ? host : "http://" + host
    }
}
