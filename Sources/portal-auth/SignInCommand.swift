import AuthPlatform
import FoundationEssentials
import PortalAuth

/// `portal-auth sign-in google|apple [--open]`: a whole browser sign-in with a loopback redirect URL
/// (`http://127.0.0.1:PORT/PATH`). The port is bound before Portal is asked for anything; the
/// `authorizeUrl` line is printed (and, with `--open`, the default browser opened); the one request
/// on the path is answered with a "you can close this tab" page and exchanged; the result line is
/// `handle-redirect`'s.
struct SignInCommand {
    let configuration: PortalConfiguration
    let transport: any HTTPTransport
    let provider: AuthMethod
    let opensBrowser: Bool

    func run() async throws -> ExitCode {
        guard PortalAuth.loopbackPort(of: configuration.redirectUrl) != nil else {
            throw ErrorReport.usage(
                "sign-in needs a loopback redirect URL such as http://127.0.0.1:8791/auth/callback "
                    + "(on the auth environment's allow list) in --redirect-url or PORTAL_REDIRECT_URL. "
                    + "With the app's scheme, use login-url and handle-redirect - instead.")
        }
        let auth = try PortalAuthFactory.make(
            configuration, logger: StandardErrorLog.ifRequested(program: "portal-auth"),
            transport: transport, browser: PrintingBrowser(opens: opensBrowser))
        let result = try await auth.signIn(with: provider)
        switch result {
        case .authenticated(let authenticated): PortalCLI.printAuthenticated(authenticated)
        // As handle-redirect: verify-totp needs the userJwt in a later process.
        case .totpRequired(let pending): PortalCLI.printTotpRequired(pending)
        }
        return .success
    }
}

/// The sign-in's "browser": prints the authorize URL as a JSON line for the person (or a script) to
/// open, and opens the default browser only when asked to.
private struct PrintingBrowser: BrowserLauncher {
    let opens: Bool

    func open(_ url: URL) async throws {
        Output.line([("authorizeUrl", .string(url.absoluteString))])
        if opens { try await GioBrowserLauncher().open(url) }
    }
}
