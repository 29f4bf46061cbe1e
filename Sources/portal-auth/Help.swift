enum Help {
    static let text = """
    Usage: portal-auth [OPTIONS] COMMAND [ARGS…]

    Signs in to a Portal auth environment from the command line and keeps the session in the keyring.
    Prints one JSON object per line on stdout.

    Commands:
      methods                      The sign-in methods the environment allows
      login-url google|apple       An authorize URL to open in a browser
      sign-in google|apple [--open]
                                   A whole browser sign-in with a loopback redirect URL
                                   (http://127.0.0.1:PORT/PATH): listens on the port, prints
                                   the authorizeUrl (--open also opens the browser), takes the
                                   one redirect and prints the result like handle-redirect
      handle-redirect -            Finish a sign-in from the redirect URL read on stdin
                                   (one URL per line; a URL may also be given as an
                                   argument, but it then shows in the process list)
      verify-totp CODE --user-jwt -
                                   Finish a sign-in that needs a two-factor code, with
                                   the userJwt read on stdin (recommended, as above)
      send-magic-link EMAIL        Email a sign-in link
      session                      The stored session's end user, or null (the keyring only)
      client                       The stored session's client at Portal (GET clients/me), or
                                   null; a session Portal no longer accepts is forgotten
      sign-out                     Forget the stored session
      turnkey COMMAND              Turnkey's social logins (portal-auth turnkey --help)

    Options (each also read from the environment, then defaults):
      --api-host HOST              PORTAL_API_HOST (default 127.0.0.1:8790, the local emulator)
      --environment-id ID          PORTAL_AUTH_ENVIRONMENT_ID (default local-dev)
      --redirect-url URL           PORTAL_REDIRECT_URL (default io.github.portalauth.signin://auth/callback)
      --session-key KEY            PORTAL_SESSION_KEY (default "default"): keeps several sessions apart
      --ca-file FILE               PORTAL_CA_FILE: PEM certificate authorities trusted in addition to
                                   the system's, for a self-hosted or company backend
      -h, --help                   Show this help

    PORTAL_HTTP_TIMEOUT_SECONDS (default 30) bounds each request as a whole; PORTAL_DEBUG=1 logs
    what the client does on stderr (never a secret).

    Redirect URLs and user JWTs are secrets: pass them on stdin with -, never on the command line.

    Exit status: 0 success, 2 usage or invalid argument, 3 not a redirect for this app, 4 unauthorized,
    5 authentication failed, 6 session storage failure, 7 network, 8 malformed or invalid response,
    9 rate limited, 10 method or feature unavailable.
    """

    static let turnkey = """
    Usage: portal-auth turnkey [OPTIONS] COMMAND [ARGS…]

    Signs in with Turnkey's social logins (Google, Apple, Discord, X) and keeps sessions, keys and
    pending sign-ins in the keyring. Prints one JSON object per line on stdout.

    Commands:
      providers                    The enabled providers and the parent organization
      login-url PROVIDER           Start a sign-in (google, apple, discord or x) and print the
                                   authorizeUrl to open in a browser; what the callback needs
                                   waits in the keyring for one hour
          [--client-id ID]         Use this client ID instead of the configured one
          [--state KEY=VALUE]…     Extra state for Google's and Apple's origin page
      handle-redirect -            Finish a sign-in from the redirect URL read on stdin
          [--session-key K]        Store the session under K (default "default")
          [--oidc-only]            Print the OIDC token and public key instead, store nothing
      complete-oauth --oidc-token - --public-key HEX [--provider-name N] [--session-key K]
                                   Finish an --oidc-only sign-in, the token read on stdin
      session [--session-key K]    The stored session, or null
      sessions                     The session keys that hold a live session
      whoami [--session-key K]     Who Turnkey says the session belongs to (a stamped request)
      refresh [--session-key K]    Renew the session on a new key (action "refresh")
      sign-out [--session-key K]   Forget the session and its key

    Options (each also read from the environment, then defaults):
      --auth-proxy-url URL         TURNKEY_AUTH_PROXY_URL (default http://127.0.0.1:8790/turnkey/auth-proxy)
      --auth-proxy-config-id ID    TURNKEY_AUTH_PROXY_CONFIG_ID (default local-dev)
      --api-url URL                TURNKEY_API_URL (default http://127.0.0.1:8790/turnkey/api)
      --organization-id ID         TURNKEY_ORGANIZATION_ID (default: the Auth Proxy's)
      --session-key KEY            TURNKEY_SESSION_KEY (default "default")
      --ca-file FILE               PORTAL_CA_FILE: PEM certificate authorities trusted in addition to
                                   the system's (shared with the Portal commands)
      -h, --help                   Show this help

    With an Auth Proxy on 127.0.0.1 or localhost (the emulator), the origin page and the Discord and X
    pages are the emulator's; TURNKEY_OAUTH_ORIGIN_URL, TURNKEY_DISCORD_AUTHORIZE_URL and
    TURNKEY_X_AUTHORIZE_URL override them.

    Redirect URLs and OIDC tokens are secrets: pass them on stdin with -, never on the command line.

    Exit status: 0 success, 2 usage or invalid argument (a taken session key too), 3 not a redirect
    for this app, 4 unauthorized or no session, 5 authentication failed (an unknown state, a provider
    error, a nonce mismatch), 6 keyring failure, 7 network, 8 malformed response, 9 rate limited,
    10 provider or feature unavailable.
    """
}
