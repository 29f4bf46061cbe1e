enum Help {
    static let text = """
    Usage: portal-auth [OPTIONS] COMMAND [ARGS…]

    Signs in to a Portal auth environment from the command line and keeps the session in the keyring.
    Prints one JSON object per line on stdout.

    Commands:
      methods                      The sign-in methods the environment allows
      login-url google|apple       An authorize URL to open in a browser
      handle-redirect -            Finish a sign-in from the redirect URL read on stdin
                                   (one URL per line; a URL may also be given as an
                                   argument, but it then shows in the process list)
      verify-totp CODE --user-jwt -
                                   Finish a sign-in that needs a two-factor code, with
                                   the userJwt read on stdin (recommended, as above)
      send-magic-link EMAIL        Email a sign-in link
      session                      The stored session's end user, or null
      sign-out                     Forget the stored session

    Options (each also read from the environment, then defaults):
      --api-host HOST              PORTAL_API_HOST (default 127.0.0.1:8790, the local emulator)
      --environment-id ID          PORTAL_AUTH_ENVIRONMENT_ID (default local-dev)
      --redirect-url URL           PORTAL_REDIRECT_URL (default io.github.portalauth.signin://auth/callback)
      --session-key KEY            PORTAL_SESSION_KEY (default "default"): keeps several sessions apart
      -h, --help                   Show this help

    Redirect URLs and user JWTs are secrets: pass them on stdin with -, never on the command line.

    Exit status: 0 success, 2 usage or invalid argument, 3 not a redirect for this app, 4 unauthorized,
    5 authentication failed, 6 session storage failure, 7 network, 8 malformed or invalid response,
    9 rate limited, 10 method or feature unavailable.
    """
}
