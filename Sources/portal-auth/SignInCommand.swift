import FoundationEssentials
import PortalAuth
import PortalAuthGNOME

/// `portal-auth sign-in google|apple [--open]`: a whole browser sign-in with a loopback redirect URL
/// (`http://127.0.0.1:PORT/PATH`). The port is bound before Portal is asked for anything; the
/// `authorizeUrl` line is printed (and, with `--open`, the default browser opened); the one request
/// on the path is answered with a "you can close this tab" page and exchanged; the result line is
/// `handle-redirect`'s.
///
/// Ctrl+C (or SIGTERM) cancels the sign-in but not the port: the provider's tab can still finish, and
/// a free port would hand its grant to whichever program binds it next, another user's included. The
/// command holds it until the authorize URL has expired, says so, and quits at once on a second signal.
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
        // A terminal has no window: the browser starts as a window of its own.
        auth.setAuthPresentationAnchor(WindowlessAnchor())
        let signals = TerminationSignals()
        let signIn = Task { try await auth.signIn(with: provider) }
        let interrupted = Task {
            guard await signals.next() != nil else { return false }
            signIn.cancel()
            return true
        }
        let result: AuthResult
        do {
            result = try await signIn.value
            interrupted.cancel()
        } catch {
            interrupted.cancel()
            if await interrupted.value { await holdPorts(until: signals) }
            throw error
        }
        switch result {
        case .authenticated(let authenticated): PortalCLI.printAuthenticated(authenticated)
        // As handle-redirect: verify-totp needs the userJwt in a later process.
        case .totpRequired(let pending): PortalCLI.printTotpRequired(pending)
        }
        return .success
    }

    /// After an interrupt: keeps the held loopback ports until they are let go, or a second signal.
    private func holdPorts(until signals: TerminationSignals) async {
        let held = await LoopbackRedirectServer.heldPorts()
        guard let until = held.values.max() else { return }
        let ports = held.keys.sorted().map(String.init).joined(separator: ", ")
        let minutes = max(1, Int(((until - .now) / .seconds(60)).rounded(.up)))
        Output.note(
            "Sign-in cancelled. Port \(ports) on 127.0.0.1 stays held for \(minutes) more minute(s), until the sign-in link has "
                + "expired, so that a late redirect from the browser reaches no other program; it is answered and never used. "
                + "Press Ctrl+C again to quit now.")
        let secondSignal = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await signals.next() != nil }
            group.addTask {
                try? await Task.sleep(until: until, clock: .continuous)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        if secondSignal {
            Output.note(
                "Port \(ports) is free now. If the sign-in page is still open in the browser, close it: "
                    + "a redirect that arrives later could reach any program that takes the port, another user's too.")
        }
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
