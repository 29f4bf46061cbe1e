/// A secret given as an argument is refused before anything runs: every user of the computer can read
/// a process's command line (`/proc/PID/cmdline`, `ps`), and the first to redeem a grant owns the
/// session. The message names the stdin form and never repeats the value.
enum SecretOnCommandLine {
    enum Kind {
        case redirectURL, userJwt, turnkeyRedirectURL, oidcToken
    }

    static func refused(_ kind: Kind) -> ErrorReport {
        let why = "Other users of this computer can read a command line, so the CLI takes no secret there (the value was not used)."
        switch kind {
        case .redirectURL:
            return .usage("A redirect URL carries the sign-in's grant. Run portal-auth handle-redirect - and give the URL on stdin. " + why)
        case .userJwt:
            return .usage("A user JWT is a secret. Give it on stdin: portal-auth verify-totp CODE --user-jwt -. " + why)
        case .turnkeyRedirectURL:
            return .usage(
                "A redirect URL carries the sign-in's token or code. Run portal-auth turnkey handle-redirect - and give the URL on stdin. "
                    + why)
        case .oidcToken:
            return .usage(
                "An OIDC token is a secret. Give it on stdin: portal-auth turnkey complete-oauth --oidc-token - --public-key HEX. " + why)
        }
    }
}

/// No ID to sign in with: said before any connection is made, with what to set. No service has a
/// default ID, and the local test environment is never assumed.
enum NotSetUp {
    static let caseName = "notSetUp"

    static let portal = ErrorReport(
        caseName: caseName,
        message: "Portal is not set up: no auth environment ID. "
            + "Set PORTAL_AUTH_ENVIRONMENT_ID (or --environment-id ID) to your Portal auth environment ID, "
            + "or use the local test environment with --emulator (or PORTAL_AUTH_EMULATOR_HOST=127.0.0.1:8790).",
        exitCode: .usage)

    static let turnkey = ErrorReport(
        caseName: caseName,
        message: "Turnkey is not set up: no Auth Proxy config ID. "
            + "Set TURNKEY_AUTH_PROXY_CONFIG_ID (or --auth-proxy-config-id ID) to your Auth Proxy config ID, "
            + "or use the local test environment with --emulator (or PORTAL_AUTH_EMULATOR_HOST=127.0.0.1:8790).",
        exitCode: .usage)
}
