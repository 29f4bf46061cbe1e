// Portal's "loginWithApple" page, its example as written. Changed, the platform only: the import,
// and the desktop's browser (GioBrowserLauncher, the user's default browser, or the OpenURI portal in
// a Flatpak) where UIKit has `UIApplication.shared.open`.
import ExampleSupport
import FoundationEssentials
import PortalAuthGNOME

@MainActor final class LoginController {
    let auth: PortalAuth

    init(auth: PortalAuth, view: ExampleWindow) {
        self.auth = auth
        view.addButton("Open Apple in the browser") { [weak self] in await self?.openAppleInBrowser() }
        _ = view.addLabel("The redirect that comes back goes to auth.handleRedirect (see the handle-redirect example).")
    }

    // From the page, unchanged but for the line that opens the browser.
    func openAppleInBrowser() async {
        do {
            let authorize = try await auth.loginWithApple()

            guard let url = URL(string: authorize.authorizeUrl) else {
                print("The authorize URL could not be parsed.")
                return
            }
            try await GioBrowserLauncher().open(url)
            // Forward the redirect that comes back to auth.handleRedirect(url).
        } catch PortalAuthError.authMethodUnavailable(let method) {
            print("\(method.rawValue) is not enabled for this auth environment.")
        } catch {
            print("Error starting Apple sign-in: \(error)")
        }
    }
}

let app = ExampleApp(id: "io.github.portalauth.examples.LoginWithApple")
var controller: LoginController?
app.run {
    let window = app.makeWindow(title: "Log in with Apple")
    do {
        controller = LoginController(auth: try ExampleEnvironment.portalAuth(), view: window)
    } catch {
        print("PortalAuth could not be set up: \(error)")
    }
    window.present()
}
