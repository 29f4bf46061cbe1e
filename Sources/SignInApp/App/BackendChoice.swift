import AuthBase
import FoundationEssentials
import SignInFlow

/// Which service the window signs in to: `PORTAL_SIGN_IN_BACKEND`, then the GSettings key
/// `backend`, then Portal. A value that names neither is not guessed at: the next source decides,
/// and the person is told on stderr.
enum BackendChoice {
    static let environmentVariable = "PORTAL_SIGN_IN_BACKEND"
    static let settingsKey = "backend"

    static func resolve(environment: [String: String], settings: [String: String]) -> (backend: Backend, warning: String?) {
        var warning: String?
        for (source, value) in [(environmentVariable, environment[environmentVariable]), (settingsKey, settings[settingsKey])] {
            guard let value = value?.trimmed, !value.isEmpty else { continue }
            if let backend = Backend(rawValue: value.lowercased()) { return (backend, warning) }
            warning =
                warning
                ?? "\(source) is “\(String(value.withoutControlCharacters.prefix(40)))”, which is neither “portal” nor “turnkey”; ignoring it"
        }
        return (.portal, warning)
    }
}
