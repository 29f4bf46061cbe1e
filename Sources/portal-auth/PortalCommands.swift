import FoundationEssentials
import PortalAuth
import PortalAuthGNOME

/// Portal's commands: each prints its result lines and returns the exit status.
extension PortalCLI {
    func methods() async throws {
        let methods = try await auth.getMethods()
        Output.line([
            ("allowedAuthMethods", .array(methods.allowedAuthMethods.map { .string($0.rawValue) })),
            ("autoCreateWallet", .bool(methods.autoCreateWallet))
        ])
    }

    func loginURL(_ provider: AuthMethod) async throws {
        let result = try await auth.login(with: provider)
        Output.line([("authorizeUrl", .string(result.authorizeUrl))])
    }

    func signIn(_ provider: AuthMethod, opensBrowser: Bool) async throws -> ExitCode {
        try await SignInCommand(configuration: configuration, transport: transport, provider: provider, opensBrowser: opensBrowser).run()
    }

    /// One PortalAuth for all URLs, so a repeated URL hits the replay slot instead of the network.
    func handleRedirects(_ urls: [String]) async -> ExitCode {
        await ErrorReport.eachStatus(urls) { url in
            switch try await auth.handleRedirect(url) {
            case nil:
                Output.line([("result", .string("notForThisApp"))])
                return .notForThisApp
            case .authenticated(let result)?:
                Self.printAuthenticated(result)
            case .totpRequired(let pending)?:
                Self.printTotpRequired(pending)
            }
            return .success
        }
    }

    func verifyTotp(_ code: String, userJwt: String) async throws {
        Self.printAuthenticated(try await auth.verifyTotp(code, userJwt: userJwt))
    }

    func sendMagicLink(_ email: String) async throws {
        try await auth.sendMagicLink(email)
        Output.line([("sent", .bool(true))])
    }

    func session() async throws {
        let session = try await auth.restoreSession()
        Output.line([("session", session.map { .object([("endUserId", .string($0.endUserId))]) } ?? .null)])
    }

    /// `GET clients/me` with the stored session. A session Portal no longer accepts is forgotten,
    /// as the app does, so the next command does not try it again.
    func client() async throws {
        guard let session = try await auth.restoreSession() else {
            Output.line([("client", .null)])
            return
        }
        let portal = try Portal(credentials: session, transport: transport)
        let found: ClientInfo?
        do {
            found = try await portal.client
        } catch PortalRequestsError.unauthorized(let path) {
            try await auth.clearPersistedSession()
            throw PortalRequestsError.unauthorized(path: path)
        }
        guard let info = found else { return Output.line([("client", .null)]) }
        let namespaces = info.metadata.namespaces
        let addresses = PortalNamespace.allCases.compactMap { namespace in
            namespaces[namespace].map { (namespace.rawValue, JSONOutput.string($0.address)) }
        }
        Output.line([
            (
                "client",
                .object([
                    ("id", .string(info.id)), ("endUserId", .optional(info.endUserId)),
                    ("isAccountAbstracted", .optional(info.isAccountAbstracted)),
                    ("custodian", .object([("id", .string(info.custodian.id)), ("name", .string(info.custodian.name))])),
                    ("environment", info.environment.map { .object([("id", .string($0.id)), ("name", .string($0.name))]) } ?? .null),
                    ("addresses", .object(addresses)),
                    (
                        "wallets",
                        .array(
                            info.wallets.map {
                                .object([("id", .string($0.id)), ("curve", .string($0.curve)), ("publicKey", .string($0.publicKey))])
                            })
                    )
                ])
            )
        ])
    }

    func signOut() async throws {
        try await auth.clearPersistedSession()
        Output.line([("signedOut", .bool(true))])
    }

    static func printAuthenticated(_ result: AuthenticatedResult) {
        Output.line([
            ("result", .string("authenticated")), ("endUserId", .string(result.session.endUserId)),
            ("clientId", .optional(result.clientId)),
            ("isAccountAbstracted", .optional(result.isAccountAbstracted))
        ])
    }

    /// The only place a Portal secret is printed: verify-totp needs the userJwt in a later process.
    static func printTotpRequired(_ pending: TotpRequiredResult) {
        Output.line([
            ("result", .string("totpRequired")), ("endUserId", .string(pending.endUserId)),
            ("userJwt", .string(pending.userJwt)), ("totpLink", .optional(pending.totpLink))
        ])
    }
}
