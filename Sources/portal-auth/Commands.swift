import FoundationEssentials
import PortalAuth
import AuthPlatform

/// Runs one command against a `PortalAuth` and prints its result lines. Returns the exit status.
struct Commands {
    let auth: PortalAuth
    /// For `client`, which calls Portal with the stored session.
    let configuration: PortalConfiguration
    let transport: any HTTPTransport

    func run(_ command: Invocation.Command) async -> ExitCode {
        switch command {
        case .handleRedirect(let urls):
            // One PortalAuth for all URLs, so a repeated URL hits the replay slot instead of the network.
            var status = ExitCode.success
            for url in urls {
                status = await report { try await handleRedirect(url) }
            }
            return status
        case .signIn(let provider, let opensBrowser):
            let command = SignInCommand(configuration: configuration, transport: transport, provider: provider, opensBrowser: opensBrowser)
            return await report { try await command.run() }
        default:
            return await report { try await runSingle(command) }
        }
    }

    /// Prints the failure line for a thrown error; the status of whatever happened.
    private func report(_ body: () async throws -> ExitCode) async -> ExitCode {
        do {
            return try await body()
        } catch {
            let report = ErrorReport(error)
            report.emit()
            return report.exitCode
        }
    }

    private func runSingle(_ command: Invocation.Command) async throws -> ExitCode {
        switch command {
        case .methods:
            let methods = try await auth.getMethods()
            Output.line([("allowedAuthMethods", .array(methods.allowedAuthMethods.map { .string($0.rawValue) })),
                         ("autoCreateWallet", .bool(methods.autoCreateWallet))])
        case .loginURL(let provider):
            let result = provider == .google ? try await auth.loginWithGoogle() : try await auth.loginWithApple()
            Output.line([("authorizeUrl", .string(result.authorizeUrl))])
        case .verifyTotp(let code, let userJwt):
            printAuthenticated(try await auth.verifyTotp(code, userJwt: userJwt))
        case .sendMagicLink(let email):
            try await auth.sendMagicLink(email: email)
            Output.line([("sent", .bool(true))])
        case .session:
            let session = try await auth.restoreSession()
            Output.line([("session", session.map { .object([("endUserId", .string($0.endUserId))]) } ?? .null)])
        case .client:
            try await printClient()
        case .signOut:
            try await auth.clearPersistedSession()
            Output.line([("signedOut", .bool(true))])
        case .help, .handleRedirect, .signIn:
            preconditionFailure("help is printed before any PortalAuth exists; handle-redirect and sign-in are handled in run(_:)")
        }
        return .success
    }

    /// `GET clients/me` with the stored session. A session Portal no longer accepts is forgotten,
    /// as the app does, so the next command does not try it again.
    private func printClient() async throws {
        guard let session = try await auth.restoreSession() else {
            Output.line([("client", .null)])
            return
        }
        let client = try PortalClient(session: session, apiHost: configuration.apiHost,
                                      authEnvironmentId: configuration.authEnvironmentId, transport: transport)
        let info: ClientInfo
        do {
            info = try await client.getClient()
        } catch PortalRequestsError.unauthorized(let path) {
            try await auth.clearPersistedSession()
            throw PortalRequestsError.unauthorized(path: path)
        }
        Output.line([("client", .object([("id", .string(info.id)), ("endUserId", .optional(info.endUserId)),
                                         ("isAccountAbstracted", .optional(info.isAccountAbstracted))]))])
    }

    private func handleRedirect(_ url: String) async throws -> ExitCode {
        switch try await auth.handleRedirect(url) {
        case nil:
            Output.line([("result", .string("notForThisApp"))])
            return .notForThisApp
        case .authenticated(let result)?:
            printAuthenticated(result)
        case .totpRequired(let pending)?:
            // The only place a secret is printed: verify-totp needs the userJwt in a later process.
            Output.line([("result", .string("totpRequired")), ("endUserId", .string(pending.endUserId)),
                         ("userJwt", .string(pending.userJwt)), ("totpLink", .optional(pending.totpLink))])
        }
        return .success
    }

    private func printAuthenticated(_ result: AuthenticatedResult) {
        Output.line([("result", .string("authenticated")), ("endUserId", .string(result.session.endUserId)),
                     ("clientId", .optional(result.clientId)),
                     ("isAccountAbstracted", .optional(result.isAccountAbstracted))])
    }
}
