import PortalAuthGNOME

/// What a command runs once its backend's core is made: prints its lines, returns the exit status.
typealias Job<Core> = @Sendable (Core) async throws -> ExitCode

/// The job of a command whose status is success unless it throws.
func succeeds<Core>(_ body: @escaping @Sendable (Core) async throws -> Void) -> Job<Core> {
    { core in
        try await body(core)
        return .success
    }
}

/// One command of `portal-auth` or `portal-auth turnkey`.
struct Command<Core: BackendCore>: Sendable {
    let name: String
    /// Its own options, beside the ones every command of its backend takes.
    var options: [Option] = []
    /// Starts a sign-in or spends a grant, a redirect or a token for a session: refused before it
    /// sends anything when there is no keyring to keep the session in (`KeyringCheck`).
    var needsKeyring = false
    /// Its lines in the help text.
    let help: String
    /// Reads its words and options (a usage error when they are wrong) into what it runs.
    let read: @Sendable (Given) throws -> Job<Core>
}

extension Command {
    /// A command that takes no words: it runs `body` and succeeds unless it throws.
    init(name: String, options: [Option] = [], help: String, runs body: @escaping @Sendable (Core) async throws -> Void) {
        self.init(
            name: name, options: options, help: help,
            read: { given in
                try given.expectWords(0)
                return succeeds(body)
            })
    }
}

/// A backend's command table: its commands, the options they share and its words.
struct CommandBackend<Core: BackendCore>: Sendable {
    /// How the help names it: `portal-auth`, `portal-auth turnkey`.
    let program: String
    /// How errors name one of its commands: `command`, `Turnkey command`.
    let commandNoun: String
    /// The help text: `helpIntro`, each command's lines, `helpOutro`. Made only when the help is
    /// asked for: the settings part is built from the settings table, work every other command
    /// would pay for at start.
    let helpIntro: @Sendable () -> String
    let helpOutro: @Sendable () -> String
    /// The usage error for an option given to a command it does not belong to.
    let misplaced: @Sendable (_ option: String, _ command: String) -> String
    /// Taken by every command (besides `--emulator`, which every backend takes).
    let sharedOptions: [Option]
    /// Arguments that look like options but are read as words by their command (`sign-in --open`).
    var optionWords: Set<String> = []
    let commands: [Command<Core>]

    var helpText: String {
        ([helpIntro()] + commands.map(\.help) + [helpOutro()]).joined(separator: "\n")
    }
}

/// What a command was given: the words after its name and the values of its options.
struct Given {
    let command: String
    let program: String
    let words: [String]
    let values: [String: String]
    let repeated: [String: [String]]
    let switches: Set<String>

    func expectWords(_ count: Int) throws {
        guard words.count == count else {
            throw ErrorReport.usage(
                "\(command) takes \(count == 0 ? "no arguments" : "exactly \(count) argument"). "
                    + "Run \(program) --help for the usage.")
        }
    }

    /// `-` and the redirect URLs on stdin, one per line: no grant, token or code shows in the process list.
    /// Each URL is at most `StandardInput.redirectURL`'s length, the whole input 64 KiB.
    func redirectURLs(refusing kind: SecretOnCommandLine.Kind) throws -> [String] {
        guard !words.isEmpty else { throw ErrorReport.usage("\(command) needs -, to read the redirect URL from stdin.") }
        guard words == ["-"] else { throw SecretOnCommandLine.refused(kind) }
        let urls = try StandardInput.lines(StandardInput.redirectURL)
        guard !urls.isEmpty else { throw ErrorReport.usage("\(command) - read no URL from stdin.") }
        return urls
    }
}

/// What a backend's commands run against: its core, made before any command runs.
protocol BackendCore: Sendable {
    /// Throws the not-set-up report when the backend's ID is missing.
    static func make(_ setup: CoreSetup) throws -> Self
}

/// What a backend's core is made from: the configuration flags and the environment, and the parts
/// every backend's core takes.
struct CoreSetup {
    let flags: [String: String]
    let environment: [String: String]
    /// On stderr with PORTAL_AUTH_DEBUG=1, never a secret.
    let logger = StandardErrorLog.ifRequested(program: "portal-auth")

    /// libsoup with the CA file and timeout these flags and the environment give.
    func transport() -> SoupTransport {
        SoupTransport(configuration: .resolve(flags: flags, environment: environment, settings: [:]))
    }
}
