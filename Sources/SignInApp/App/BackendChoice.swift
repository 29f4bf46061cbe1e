import AuthBase
import FoundationEssentials
import PortalAuthGNOME
import SignInFlow

/// Which service the window signs in to (`Setting.backend`): `PORTAL_SIGN_IN_BACKEND`, then the
/// GSettings key `backend`, then Portal. A value that names neither is not guessed at: the next
/// source decides, and the person is told on stderr.
enum BackendChoice {
    static func resolve(environment: [String: String], settings: [String: String]) -> (backend: Backend, warning: String?) {
        var warning: String?
        for (source, value) in Setting.backend.givenValues(flags: [:], environment: environment, settings: settings) {
            if let backend = Backend(rawValue: value.lowercased()) { return (backend, warning) }
            warning =
                warning
                ?? "\(source) is “\(String(value.withoutControlCharacters.prefix(40)))”, which is neither “portal” nor “turnkey”; ignoring it"
        }
        return (.portal, warning)
    }
}
