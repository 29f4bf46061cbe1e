import FoundationEssentials
import TurnkeyAuth

/// Runs one `portal-auth turnkey` command against a `TurnkeyAuth` and prints its result lines, as
/// DESIGN.md's table has them. Returns the exit status.
struct TurnkeyCommands {
    let auth: TurnkeyAuth

    func run(_ command: TurnkeyInvocation.Command) async -> ExitCode {
        switch command {
        case .handleRedirect(let urls, let oidcOnly):
            // One TurnkeyAuth for all URLs, so a repeated callback replays instead of spending a code twice.
            var status = ExitCode.success
            for url in urls {
                status = await report { try await handleRedirect(url, oidcOnly: oidcOnly) }
            }
            return status
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

    private func runSingle(_ command: TurnkeyInvocation.Command) async throws -> ExitCode {
        switch command {
        case .providers:
            let providers = try await auth.providers()
            Output.line([("enabledProviders", .array(providers.enabledProviders.map { .string($0.rawValue) })),
                         ("organizationId", .optional(providers.organizationId))])
        case .loginURL(let provider, let clientId, let additionalState):
            // Sign-ins left waiting for more than an hour end here, as the SDK ends them at launch.
            try await auth.purgeExpired()
            let login = try await auth.loginURL(for: provider, clientId: clientId, additionalState: additionalState)
            // All public: the nonce, PKCE challenge and state are meant for the browser.
            Output.line([("authorizeUrl", .string(login.authorizeUrl.absoluteString)), ("provider", .string(provider.rawValue)),
                         ("publicKey", .string(login.publicKey))])
        case .completeOAuth(let oidcToken, let publicKey, let providerName):
            printAuthenticated(try await auth.completeOAuth(oidcToken: oidcToken, publicKey: publicKey, providerName: providerName))
        case .session:
            let session = try await auth.session()
            Output.line([("session", session.map { session in
                .object([("sessionKey", .string(session.sessionKey)), ("organizationId", .string(session.organizationId)),
                         ("userId", .string(session.userId)), ("expiresAt", .string(Self.timestamp(session.expiresAt))),
                         ("publicKey", .string(session.publicKey))])
            } ?? .null)])
        case .sessions:
            Output.line([("sessionKeys", .array(try await auth.sessions().map { .string($0.sessionKey) }))])
        case .whoami:
            let whoami = try await auth.whoami()
            Output.line([("organizationId", .string(whoami.organizationId)), ("userId", .string(whoami.userId)),
                         ("username", .optional(whoami.username))])
        case .refresh:
            printAuthenticated(session: try await auth.refreshSession(), action: "refresh")
        case .signOut:
            try await auth.signOut()
            Output.line([("signedOut", .bool(true))])
        case .help, .handleRedirect:
            preconditionFailure("help is printed before any TurnkeyAuth exists; handle-redirect is handled in run(_:)")
        }
        return .success
    }

    private func handleRedirect(_ url: String, oidcOnly: Bool) async throws -> ExitCode {
        // --oidc-only is the SDK's onOAuthSuccess: the token comes back in the result, printed below.
        var handOver: (@Sendable (OAuthSuccess) -> Void)?
        if oidcOnly { handOver = { _ in } }
        let result: TurnkeyRedirectResult? = try await auth.handleRedirect(url, onOAuthSuccess: handOver)
        switch result {
        case nil:
            Output.line([("result", .string("notForThisApp"))])
            return .notForThisApp
        case .authenticated(let completed)?:
            printAuthenticated(completed)
        case .oidcToken(let success)?:
            // The one place a Turnkey secret is printed: complete-oauth needs the token in a later process.
            Output.line([("result", .string("oidcToken")), ("oidcToken", .string(success.oidcToken)),
                         ("publicKey", .string(success.publicKey)), ("providerName", .string(success.providerName))])
        }
        return .success
    }

    private func printAuthenticated(_ result: CompleteOAuthResult) {
        printAuthenticated(session: result.session, action: result.action.rawValue)
    }

    private func printAuthenticated(session: TurnkeySession, action: String) {
        Output.line([("result", .string("authenticated")), ("action", .string(action)), ("sessionKey", .string(session.sessionKey)),
                     ("organizationId", .string(session.organizationId)), ("userId", .string(session.userId)),
                     ("expiresAt", .string(Self.timestamp(session.expiresAt)))])
    }

    /// ISO 8601 in UTC, to the second.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
