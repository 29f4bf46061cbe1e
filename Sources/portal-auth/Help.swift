import PortalAuthGNOME
import TurnkeyAuth

/// The words around each backend's command lines in its help text (`CommandBackend.helpText`); each
/// command's own lines are in its entry of the command table, each setting's in the settings table.
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

        \(settings(serving: .portal))

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

        \(settings(serving: .turnkey))

        With the emulator, the origin page and the \(ProviderWords.sentence(pkce.map(\.displayName), "and")) pages are the emulator's; otherwise
        Turnkey's own, unless the variables above name others.

        Redirect URLs and OIDC tokens are secrets: they are read on stdin (-) only, and refused on the
        command line, which other users of the computer can read. Stdin is read up to 64 KiB in all:
        a redirect URL of at most \(StandardInput.redirectURL.maxCharacters) characters a line, an OIDC token of at most \(StandardInput.oidcToken.maxCharacters);
        a longer one is refused (exit 2) without being used or repeated.

        Exit status: 0 success, 2 usage, invalid argument (a taken session key too) or not set up (no
        Auth Proxy config ID), 3 not a redirect for this app, 4 unauthorized or no session, 5 authentication
        failed (an unknown state, a provider error, a nonce mismatch), 6 keyring failure, 7 network,
        8 malformed response, 9 rate limited, 10 provider or feature unavailable.
        """

    /// The settings `backend`'s commands read, from the settings table: first those with a flag
    /// (each also read from its variable), then those read from the environment only.
    static func settings(serving backend: Setting.Serves) -> String {
        let settings = Setting.readByCLI(serving: backend)
        let withFlag = settings.filter { $0.flag != nil }.flatMap { setting in
            entry("  " + (setting.flagUsage ?? ""), "\(setting.variable ?? "") (\(setting.defaultWords))", setting)
        }
        let environmentOnly = settings.filter { $0.flag == nil }.flatMap { setting in
            entry("  \(setting.variable ?? "")=\(setting.valueName) (\(setting.defaultWords))", nil, setting)
        }
        return
            (["Options (each also read from the environment, then its default):"] + withFlag
            + entryLine("  -h, --help", "Show this help") + entryLine("  --version", "Show the version of portal-auth") + [
                "", "Also read from the environment:"
            ] + environmentOnly)
            .joined(separator: "\n")
    }

    /// A setting's lines: its usage (and, beside it, `note`), its summary, and its older names.
    private static func entry(_ usage: String, _ note: String?, _ setting: Setting) -> [String] {
        let older = setting.aliases.isEmpty ? [] : entryLine("", "Older name, still read: " + setting.aliases.joined(separator: ", "))
        let first = note.map { usage.padding(to: column) + $0 } ?? usage
        return [first] + entryLine("", setting.summary) + older
    }

    /// Where the second column starts.
    private static let column = 31

    /// `usage` with `text` in the second column, wrapped to 100 characters a line.
    private static func entryLine(_ usage: String, _ text: String) -> [String] {
        var lines: [String] = []
        var line = usage.padding(to: column)
        for word in text.split(separator: " ") {
            if line.count > column, line.count + 1 + word.count > 100 {
                lines.append(line)
                line = "".padding(to: column)
            }
            line += (line.count > column ? " " : "") + word
        }
        return lines + [line]
    }
}

extension String {
    /// Followed by spaces up to `width` characters.
    fileprivate func padding(to width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
