// Portal's "handleRedirect" page, its example as written. Changed, the platform only: the import, and
// where the URL comes from: the desktop starts (or, already running, activates) the app with the
// redirect to open, as `x-scheme-handler/<your scheme>` in your desktop file asks it to; GApplication
// hands it to `open`, where iOS calls `onOpenURL`. Try it with `handle-redirect 'URL'`.
import ExampleSupport
import FoundationEssentials
import PortalAuthGNOME

@MainActor final class RedirectController {
    let auth: PortalAuth
    let status: ExampleLabel
    var portal: Portal?

    init(auth: PortalAuth, view: ExampleWindow) {
        self.auth = auth
        status = view.addLabel("Waiting for a sign-in link or redirect")
    }

    // From the page, unchanged.
    func completeSignIn(with url: URL) async {
        do {
            guard let result = try await auth.handleRedirect(url) else {
                // Not a Portal sign-in redirect.
                return
            }

            switch result {
            case .authenticated(let authenticated):
                let portal = try Portal(credentials: authenticated.session)
                portal.onSessionInvalidated { [weak self] in
                    self?.showSignIn()
                }
                self.portal = portal
                status.show("Signed in as end user \(authenticated.session.endUserId)")
            case .totpRequired(let step):
                presentTotpPrompt(step)
            }
        } catch PortalAuthError.authenticationFailed(let error) {
            print("Sign-in failed: \(error)")
        } catch PortalRequestsError.unauthorized {
            print("The sign-in link is no longer valid. Send a new one.")
        } catch {
            print("Error completing sign-in: \(error)")
        }
    }

    func showSignIn() { status.show("Signed out") }

    func presentTotpPrompt(_ step: TotpRequiredResult) {
        status.show("Enter the code from your authenticator app (see the verifyTotp page).")
    }
}

let app = ExampleApp(id: "io.github.portalauth.examples.HandleRedirect", handlesOpen: true)
var controller: RedirectController?
var waiting: [URL] = []
app.onOpen { uri in
    guard let url = URL(string: uri) else { return }
    if let controller { Task { await controller.completeSignIn(with: url) } } else { waiting.append(url) }
}
app.run {
    let window = app.makeWindow(title: "Complete the sign-in")
    do {
        let made = RedirectController(
            auth: try PortalAuth(
                authEnvironmentId: ExampleEnvironment.value("PORTAL_AUTH_ENVIRONMENT_ID", or: "local-dev"),
                redirectUrl: ExampleEnvironment.value("PORTAL_REDIRECT_URL", or: "io.github.portalauth.signin://auth/callback")),
            view: window)
        controller = made
        for url in waiting { Task { await made.completeSignIn(with: url) } }
        waiting = []
    } catch {
        print("PortalAuth could not be set up: \(error)")
    }
    window.present()
}
