import FoundationEssentials
import PortalAuth
import PortalAuthGNOME

/// What Portal's commands run against: the core, and for `client` and `sign-in` the configuration
/// and transport it was made from.
struct PortalCLI: BackendCore {
    let auth: PortalAuth
    let configuration: PortalConfiguration
    let transport: any HTTPTransport

    /// The provider Portal offers under the identifier `word` (`google`), or nil.
    static func provider(_ word: String) -> AuthMethod? {
        SignInProvider(rawValue: word.lowercased()).flatMap(AuthMethod.init)
    }

    static func make(_ setup: CoreSetup) throws -> PortalCLI {
        let configuration = PortalConfiguration.resolve(flags: setup.flags, environment: setup.environment, settings: [:])
        guard configuration.isSetUp else { throw NotSetUp.portal }
        let transport = setup.transport()
        return PortalCLI(
            auth: try PortalAuthFactory.make(configuration, logger: setup.logger, transport: transport),
            configuration: configuration, transport: transport)
    }
}

extension CommandBackend<PortalCLI> {
    static var portal: Self {
        CommandBackend(
            program: "portal-auth",
            commandNoun: "command",
            helpIntro: { Help.portalIntro },
            helpOutro: { Help.portalOutro },
            misplaced: { option, _ in "--\(option) belongs to verify-totp only." },
            sharedOptions: Option.configuring(.portal).map { Option($0, blankRefusal: blankRefusal($0)) },
            optionWords: ["--open"],
            commands: [
                Command(
                    name: "methods",
                    help: """
                          methods                      The sign-in methods the environment allows
                        """,
                    runs: { try await $0.methods() }
                ),
                Command(
                    name: "login-url", needsKeyring: true,
                    help: """
                          \(ProviderWords.column("login-url " + ProviderWords.portal.joined(separator: "|")))An authorize URL to open in a browser
                        """
                ) { given in
                    try given.expectWords(1)
                    guard let provider = PortalCLI.provider(given.words[0]) else {
                        throw ErrorReport.usage("login-url takes \(ProviderWords.sentence(ProviderWords.portal)).")
                    }
                    return succeeds { try await $0.loginURL(provider) }
                },
                Command(
                    name: "sign-in", needsKeyring: true,
                    help: """
                          sign-in \(ProviderWords.portal.joined(separator: "|")) [--open]
                                                       A whole browser sign-in with a loopback redirect URL
                                                       (http://127.0.0.1:PORT/PATH; port 0: any free port): listens
                                                       on the port, prints the authorizeUrl (--open also opens the
                                                       browser), takes the one redirect and prints the result like
                                                       handle-redirect. Ctrl+C cancels but keeps the port until the
                                                       link expires (a late redirect is answered, never used);
                                                       Ctrl+C again quits at once, leaving the port to anyone
                        """
                ) { given in
                    let words = given.words.filter { $0 != "--open" }
                    guard words.count == 1, let provider = PortalCLI.provider(words[0]) else {
                        throw ErrorReport.usage(
                            "sign-in takes \(ProviderWords.sentence(ProviderWords.portal)), and --open to open the browser.")
                    }
                    let opensBrowser = given.words.contains("--open")
                    return { try await $0.signIn(provider, opensBrowser: opensBrowser) }
                },
                Command(
                    name: "handle-redirect", needsKeyring: true,
                    help: """
                          handle-redirect -            Finish a sign-in from the redirect URL read on stdin
                                                       (one URL per line)
                        """
                ) { given in
                    let urls = try given.redirectURLs(refusing: .redirectURL)
                    return { await $0.handleRedirects(urls) }
                },
                Command(
                    name: "verify-totp", options: [Option(name: "user-jwt", secret: .userJwt)], needsKeyring: true,
                    help: """
                          verify-totp CODE --user-jwt -
                                                       Finish a sign-in that needs a two-factor code, with
                                                       the userJwt read on stdin
                        """
                ) { given in
                    try given.expectWords(1)
                    guard given.values["user-jwt"] != nil, let userJwt = try StandardInput.line(StandardInput.userJwt), !userJwt.isEmpty
                    else {
                        throw ErrorReport.usage("verify-totp needs --user-jwt with the userJwt from the totpRequired line.")
                    }
                    let code = given.words[0]
                    return succeeds { try await $0.verifyTotp(code, userJwt: userJwt) }
                },
                Command(
                    name: "send-magic-link", needsKeyring: true,
                    help: """
                          send-magic-link EMAIL        Email a sign-in link
                        """
                ) { given in
                    try given.expectWords(1)
                    let email = given.words[0]
                    guard EmailAddress.looksValid(email) else {
                        throw ErrorReport(caseName: "invalidArgument", message: Messages.notAnEmail(email), exitCode: .usage)
                    }
                    return succeeds { try await $0.sendMagicLink(email) }
                },
                Command(
                    name: "session",
                    help: """
                          session                      The stored session's end user, or null (the keyring only)
                        """,
                    runs: { try await $0.session() }
                ),
                Command(
                    name: "client",
                    help: """
                          client                       The stored session's client at Portal (GET clients/me), or
                                                       null; a session Portal no longer accepts is forgotten
                        """,
                    runs: { try await $0.client() }
                ),
                Command(
                    name: "sign-out",
                    help: """
                          sign-out                     Forget the stored session
                        """,
                    runs: { try await $0.signOut() }
                )
            ]
        )
    }

    /// The core's own refusals for these two, as PortalAuth(authEnvironmentId:redirectUrl:) makes them.
    private static func blankRefusal(_ setting: Setting) -> (any Error)? {
        switch setting {
        case .authEnvironmentId: PortalAuthError.invalidArgument(name: "authEnvironmentId")
        case .redirectUrl: PortalAuthError.invalidArgument(name: "redirectUrl")
        default: nil
        }
    }
}
