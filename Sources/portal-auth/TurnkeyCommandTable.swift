import FoundationEssentials
import PortalAuthGNOME
import TurnkeyAuth

/// What Turnkey's commands run against.
struct TurnkeyCLI: BackendCore {
    let auth: TurnkeyAuth

    static func make(_ setup: CoreSetup) throws -> TurnkeyCLI {
        let configuration = TurnkeyConfiguration.resolve(flags: setup.flags, environment: setup.environment, settings: [:])
        guard configuration.isSetUp else { throw NotSetUp.turnkey }
        return TurnkeyCLI(auth: try TurnkeyAuthFactory.make(configuration, logger: setup.logger, transport: setup.transport()))
    }
}

extension CommandBackend<TurnkeyCLI> {
    static var turnkey: Self {
        CommandBackend(
            program: "portal-auth turnkey",
            commandNoun: "Turnkey command",
            helpIntro: { Help.turnkeyIntro },
            helpOutro: { Help.turnkeyOutro },
            misplaced: { option, command in "--\(option) does not belong to \(command)." },
            // The session key belongs to the commands that read or write a session.
            sharedOptions: Option.configuring(.turnkey, except: [.turnkeySessionKey]).map { Option($0) },
            commands: [
                Command(
                    name: "providers",
                    help: """
                          providers                    The enabled providers and the parent organization
                        """,
                    runs: { try await $0.providers() }
                ),
                Command(
                    name: "login-url", options: [Option(name: "client-id"), Option(name: "state", kind: .repeated)], needsKeyring: true,
                    help: """
                          login-url PROVIDER           Start a sign-in (\(ProviderWords.sentence(ProviderWords.turnkey))) and print the
                                                       authorizeUrl to open in a browser; what the callback needs
                                                       waits in the keyring for one hour
                              [--client-id ID]         Use this client ID instead of the configured one
                              [--state KEY=VALUE]…     Extra state for Google's and Apple's origin page
                        """
                ) { given in
                    guard given.words.count == 1, let provider = TurnkeyProvider(rawValue: given.words[0].lowercased()) else {
                        throw ErrorReport.usage("login-url takes one provider: \(ProviderWords.sentence(ProviderWords.turnkey)).")
                    }
                    let clientId = given.values["client-id"]
                    let additionalState = try additionalState(given.repeated["state"] ?? [])
                    return succeeds { try await $0.loginURL(provider, clientId: clientId, additionalState: additionalState) }
                },
                Command(
                    name: "handle-redirect", options: [sessionKey, Option(name: "oidc-only", kind: .switch)], needsKeyring: true,
                    help: """
                          handle-redirect -            Finish a sign-in from the redirect URL read on stdin
                              [--session-key K]        Store the session under K (default "default")
                              [--oidc-only]            Print the OIDC token and public key instead, store nothing
                        """
                ) { given in
                    let urls = try given.redirectURLs(refusing: .turnkeyRedirectURL)
                    let oidcOnly = given.switches.contains("oidc-only")
                    return { await $0.handleRedirects(urls, oidcOnly: oidcOnly) }
                },
                Command(
                    name: "complete-oauth",
                    options: [
                        Option(name: "oidc-token", secret: .oidcToken), Option(name: "public-key"),
                        Option(name: "provider-name"), sessionKey
                    ],
                    needsKeyring: true,
                    help: """
                          complete-oauth --oidc-token - --public-key HEX [--provider-name N] [--session-key K]
                                                       Finish an --oidc-only sign-in, the token read on stdin
                        """
                ) { given in
                    try given.expectWords(0)
                    guard given.values["oidc-token"] != nil, let publicKey = given.values["public-key"] else {
                        throw ErrorReport.usage("complete-oauth needs --oidc-token - (the token on stdin) and --public-key HEX.")
                    }
                    guard let token = try StandardInput.line(StandardInput.oidcToken), !token.isEmpty else {
                        throw ErrorReport.usage("complete-oauth --oidc-token - read no token from stdin.")
                    }
                    let providerName = given.values["provider-name"]
                    return succeeds { try await $0.completeOAuth(oidcToken: token, publicKey: publicKey, providerName: providerName) }
                },
                Command(
                    name: "session", options: [sessionKey],
                    help: """
                          session [--session-key K]    The stored session, or null
                        """,
                    runs: { try await $0.session() }
                ),
                Command(
                    name: "sessions",
                    help: """
                          sessions                     The session keys that hold a live session
                        """,
                    runs: { try await $0.sessions() }
                ),
                Command(
                    name: "whoami", options: [sessionKey],
                    help: """
                          whoami [--session-key K]     Who Turnkey says the session belongs to (a stamped request)
                        """,
                    runs: { try await $0.whoami() }
                ),
                Command(
                    name: "refresh", options: [sessionKey],
                    help: """
                          refresh [--session-key K]    Renew the session on a new key (action "refresh")
                        """,
                    runs: { try await $0.refresh() }
                ),
                Command(
                    name: "sign-out", options: [sessionKey],
                    help: """
                          sign-out [--session-key K]   Forget the session and its key
                        """,
                    runs: { try await $0.signOut() }
                )
            ]
        )
    }

    /// Which session a command reads or writes.
    private static var sessionKey: Option { Option(.turnkeySessionKey) }

    /// `KEY=VALUE` pairs; the last of a repeated key wins.
    private static func additionalState(_ pairs: [String]) throws -> [String: String] {
        var result: [String: String] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw ErrorReport.usage("--state takes KEY=VALUE.")
            }
            result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        return result
    }
}
