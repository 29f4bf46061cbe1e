import AuthPlatform
import TurnkeyAuth

/// The words around each backend's command lines in its help text (`Backend.helpText`); each
/// command's own lines are in its entry of the command table.
enum Help {
    /// The providers whose authorize endpoint is a setting (PKCE: Discord, X).
    private static var pkce: [TurnkeyProvider] { TurnkeyProvider.allCases.filter(\.usesPKCE) }

    static let portalIntro = """
        Usage: portal-auth [OPTIONS] COMMAND [ARGS…]

        Signs in to a Portal auth environment from the command line and keeps the session in the keyring.
        Prints one JSON object per line on stdout.

        Commands:
        """

    static let portalOutro = """
          turnkey COMMAND              Turnkey's social logins (portal-auth turnkey --help)

        Options (each also read from the environment, then defaults):
          --environment-id ID          PORTAL_AUTH_ENVIRONMENT_ID (required: no default)
          --api-host HOST              PORTAL_API_HOST (default api.portalhq.io, over https)
          --redirect-url URL           PORTAL_REDIRECT_URL (default io.github.portalauth.signin://auth/callback)
          --session-key KEY            PORTAL_SESSION_KEY (default "default"): keeps several sessions apart
          --ca-file FILE               PORTAL_CA_FILE: PEM certificate authorities trusted in addition to
                                       the system's, for a self-hosted or company backend
          --emulator[=HOST:PORT]       PORTAL_AUTH_EMULATOR_HOST: use the local test environment (the auth
                                       emulator, default 127.0.0.1:8790, environment local-dev) instead
                                       of Portal; options set above still win
          -h, --help                   Show this help

        PORTAL_HTTP_TIMEOUT_SECONDS (default 30) bounds each request as a whole; PORTAL_DEBUG=1 logs
        what the client does on stderr (never a secret).

        Redirect URLs and user JWTs are secrets: they are read on stdin (-) only, and refused on the
        command line, which other users of the computer can read. Stdin is read up to 64 KiB in all:
        a redirect URL of at most \(StandardInput.redirectURL.maxCharacters) characters a line, a user JWT of at most \(StandardInput.userJwt.maxCharacters);
        a longer one is refused (exit 2) without being used or repeated.

        Exit status: 0 success, 2 usage, invalid argument or not set up (no auth environment ID), 3 not a
        redirect for this app, 4 unauthorized, 5 authentication failed, 6 session storage failure,
        7 network, 8 malformed or invalid response, 9 rate limited, 10 method or feature unavailable.
        """

    static let turnkeyIntro = """
        Usage: portal-auth turnkey [OPTIONS] COMMAND [ARGS…]

        Signs in with Turnkey's social logins (\(TurnkeyProvider.allCases.map(\.displayName).joined(separator: ", "))) and keeps sessions, keys and
        pending sign-ins in the keyring. Prints one JSON object per line on stdout.

        Commands:
        """

    static let turnkeyOutro = """

        Options (each also read from the environment, then defaults):
          --auth-proxy-config-id ID    TURNKEY_AUTH_PROXY_CONFIG_ID (required: no default)
          --auth-proxy-url URL         TURNKEY_AUTH_PROXY_URL (default https://authproxy.turnkey.com)
          --api-url URL                TURNKEY_API_URL (default https://api.turnkey.com)
          --organization-id ID         TURNKEY_ORGANIZATION_ID (default: the Auth Proxy's)
          --session-key KEY            TURNKEY_SESSION_KEY (default "default")
          --ca-file FILE               PORTAL_CA_FILE: PEM certificate authorities trusted in addition to
                                       the system's (shared with the Portal commands)
          --emulator[=HOST:PORT]       PORTAL_AUTH_EMULATOR_HOST: use the local test environment (the auth
                                       emulator, default 127.0.0.1:8790, config local-dev) instead of
                                       Turnkey; options set above still win
          -h, --help                   Show this help

        With the emulator, the origin page and the \(ProviderWords.sentence(pkce.map(\.displayName), "and")) pages are the emulator's; otherwise
        Turnkey's own. \(ProviderWords.sentence(["TURNKEY_OAUTH_ORIGIN_URL"] + pkce.compactMap(\.authorizeUrlVariable), "and"))
        override them.

        Redirect URLs and OIDC tokens are secrets: they are read on stdin (-) only, and refused on the
        command line, which other users of the computer can read. Stdin is read up to 64 KiB in all:
        a redirect URL of at most \(StandardInput.redirectURL.maxCharacters) characters a line, an OIDC token of at most \(StandardInput.oidcToken.maxCharacters);
        a longer one is refused (exit 2) without being used or repeated.

        Exit status: 0 success, 2 usage, invalid argument (a taken session key too) or not set up (no
        Auth Proxy config ID), 3 not a redirect for this app, 4 unauthorized or no session, 5 authentication
        failed (an unknown state, a provider error, a nonce mismatch), 6 keyring failure, 7 network,
        8 malformed response, 9 rate limited, 10 provider or feature unavailable.
        """
}
