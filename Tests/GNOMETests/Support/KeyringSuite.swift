import Foundation
import Testing

/// What the keyring suites share: the CLI against a freshly reset emulator, starting from an
/// unlocked login keyring with no stored session, and sign-ins driven through the fake provider.
protocol KeyringSuite {
    var cli: CLI { get }
}

extension KeyringSuite {
    /// The shared emulator reset, and a CLI pointed at it, after checking the keyring is unlocked and empty.
    static func cleanStart() async throws -> (AdministeredEmulator, CLI) {
        GLibLoopThread.ensureRunning()
        let emulator = try #require(AdministeredEmulator.shared, "the emulator must start (swift build first)")
        try await emulator.reset()
        let cli = CLI(apiHost: emulator.apiHost)
        try #require(try !LoginKeyring.isLocked, "the login keyring must start unlocked")
        try #require(cli.run(["sign-out"]).status == 0)
        return (emulator, cli)
    }

    /// Runs the CLI and expects nothing secret in what it printed.
    func run(_ arguments: [String], input: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> CLI.Run {
        let result = cli.run(arguments, input: input)
        SecretShapes.expectNone(in: result, sourceLocation: sourceLocation)
        return result
    }

    /// The redirect a Google sign-in as `email` ends with (its grant not yet exchanged).
    func signedInRedirect(email: String = "alice@example.com") async throws -> String {
        let login = run(["login-url", "google"])
        let authorizeUrl = try #require(login.last["authorizeUrl"] as? String)
        return try await ProviderPageBrowser().signIn(authorizeUrl: authorizeUrl, choices: ["email": email])
    }
}
