// Portal's "signInWithGoogle" page, its example as written. Changed, the platform only: the import,
// where the window comes from (a GTK window as a WindowAnchor), and `print` also shown in the window.
import ExampleSupport
import PortalAuthGNOME

@MainActor final class SignInController {
    let auth: PortalAuth
    let view: ExampleWindow
    let status: ExampleLabel
    var portal: Portal?

    init(auth: PortalAuth, view: ExampleWindow) {
        self.auth = auth
        self.view = view
        status = view.addLabel("Signed out")
        view.addButton("Sign in with Google") { [weak self] in await self?.signInWithGoogleTapped() }
    }

    // From the page, unchanged but for the first line.
    func signInWithGoogleTapped() async {
        let window = WindowAnchor(gtkWindow: view.gtkWindow)
        auth.setAuthPresentationAnchor(window)

        do {
            switch try await auth.signInWithGoogle() {
            case .authenticated(let authenticated):
                let portal = try Portal(credentials: authenticated.session)
                portal.onSessionInvalidated { [weak self] in
                    self?.showSignIn()
                }
                self.portal = portal
                print("Signed in as end user \(authenticated.session.endUserId)")
                status.show("Signed in as end user \(authenticated.session.endUserId)")
            case .totpRequired(let step):
                presentTotpPrompt(step)
            }
        } catch PortalAuthSignInError.closed {
            // The user dismissed the sheet.
        } catch PortalAuthSignInError.signInInProgress {
            // Ignore the extra tap.
        } catch PortalAuthError.authMethodUnavailable(let method) {
            print("\(method.rawValue) is not enabled for this auth environment.")
        } catch {
            print("Error signing in with Google: \(error)")
        }
    }

    func showSignIn() { status.show("Signed out") }

    func presentTotpPrompt(_ step: TotpRequiredResult) {
        status.show("Enter the code from your authenticator app (see the verifyTotp example).")
    }
}

let app = ExampleApp(id: "io.github.portalauth.examples.SignInWithGoogle")
var controller: SignInController?
app.run {
    let window = app.makeWindow(title: "Sign in with Google")
    do {
        controller = SignInController(auth: try ExampleEnvironment.portalAuth(), view: window)
    } catch {
        print("PortalAuth could not be set up: \(error)")
    }
    window.present()
}
