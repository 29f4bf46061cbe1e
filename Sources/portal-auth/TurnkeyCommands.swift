import FoundationEssentials
import TurnkeyAuth

/// Turnkey's commands: each prints its result lines, as DESIGN.md's table has them, and returns the
/// exit status.
extension TurnkeyCLI {
    func providers() async throws {
        let providers = try await auth.providers()
        Output.line([
            ("enabledProviders", .array(providers.enabledProviders.map { .string($0.rawValue) })),
            ("organizationId", .optional(providers.organizationId))
        ])
    }

    func loginURL(_ provider: TurnkeyProvider, clientId: String?, additionalState: [String: String]) async throws {
        // Sign-ins left waiting for more than an hour end here, as the SDK ends them at launch.
        try await auth.purgeExpired()
        let login = try await auth.loginURL(for: provider, clientId: clientId, additionalState: additionalState)
        // All public: the nonce, PKCE challenge and state are meant for the browser.
        Output.line([
            ("authorizeUrl", .string(login.authorizeUrl.absoluteString)), ("provider", .string(provider.rawValue)),
            ("publicKey", .string(login.publicKey))
        ])
    }

    /// One TurnkeyAuth for all URLs, so a repeated callback replays instead of spending a code twice.
    func handleRedirects(_ urls: [String], oidcOnly: Bool) async -> ExitCode {
        // --oidc-only is the SDK's onOAuthSuccess: the token comes back in the result, printed below.
        var handOver: (@Sendable (OAuthSuccess) -> Void)?
        if oidcOnly { handOver = { _ in } }
        return await ErrorReport.eachStatus(urls) { url in
            switch try await auth.handleRedirect(url, onOAuthSuccess: handOver) {
            case nil:
                Output.line([("result", .string("notForThisApp"))])
                return .notForThisApp
            case .authenticated(let completed)?:
                Self.printAuthenticated(session: completed.session, action: completed.action.rawValue)
            case .oidcToken(let success)?:
                // The one place a Turnkey secret is printed: complete-oauth needs the token in a later process.
                Output.line([
                    ("result", .string("oidcToken")), ("oidcToken", .string(success.oidcToken)),
                    ("publicKey", .string(success.publicKey)), ("providerName", .string(success.providerName))
                ])
            }
            return .success
        }
    }

    func completeOAuth(oidcToken: String, publicKey: String, providerName: String?) async throws {
        let completed = try await auth.completeOAuth(oidcToken: oidcToken, publicKey: publicKey, providerName: providerName)
        Self.printAuthenticated(session: completed.session, action: completed.action.rawValue)
    }

    func session() async throws {
        let session = try await auth.session()
        Output.line([
            (
                "session",
                session.map { session in
                    .object([
                        ("sessionKey", .string(session.sessionKey)), ("organizationId", .string(session.organizationId)),
                        ("userId", .string(session.userId)), ("expiresAt", .string(Self.timestamp(session.expiresAt))),
                        ("publicKey", .string(session.publicKey))
                    ])
                } ?? .null
            )
        ])
    }

    func sessions() async throws {
        Output.line([("sessionKeys", .array(try await auth.sessions().map { .string($0.sessionKey) }))])
    }

    func whoami() async throws {
        let whoami = try await auth.whoami()
        Output.line([
            ("organizationId", .string(whoami.organizationId)), ("userId", .string(whoami.userId)),
            ("username", .optional(whoami.username))
        ])
    }

    func refresh() async throws {
        Self.printAuthenticated(session: try await auth.refreshSession(), action: "refresh")
    }

    func signOut() async throws {
        try await auth.signOut()
        Output.line([("signedOut", .bool(true))])
    }

    private static func printAuthenticated(session: TurnkeySession, action: String) {
        Output.line([
            ("result", .string("authenticated")), ("action", .string(action)), ("sessionKey", .string(session.sessionKey)),
            ("organizationId", .string(session.organizationId)), ("userId", .string(session.userId)),
            ("expiresAt", .string(Self.timestamp(session.expiresAt)))
        ])
    }

    /// ISO 8601 in UTC, to the second.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
