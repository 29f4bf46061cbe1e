import Foundation
import Testing

extension GNOMEIntegration {
    /// `handle-redirect` connects to the keyring (in a GIO worker thread) while the grant's exchange
    /// starts libsoup on the main thread. Before GIOTypes registered GIO's socket types up front, GLib's
    /// type registration could deadlock between the two, and about one sign-in in ten never returned
    /// (the CLI was killed after a minute). Forty in a row each finish, exchange once, and save.
    @Suite(.serialized) struct ConnectWhileExchangingTests: KeyringSuite {
        let emulator: AdministeredEmulator
        let cli: CLI

        init() async throws {
            (emulator, cli) = try await Self.cleanStart()
        }

        @Test func fortySignInsInARowEachFinishAndSaveOnce() async throws {
            for attempt in 1...40 {
                let redirect = try await signedInRedirect()
                let exchangesBefore = try await emulator.requests("POST", "/api/v3/auth/oauth/tokens").count
                let result = run(["handle-redirect", "-"], input: redirect + "\n")
                #expect(result.status == 0, "sign-in \(attempt) ended with \(result.status): \(result.stderr)")
                #expect(result.last["result"] as? String == "authenticated", "sign-in \(attempt)")
                #expect(
                    try await emulator.requests("POST", "/api/v3/auth/oauth/tokens").count == exchangesBefore + 1,
                    "sign-in \(attempt) did not exchange its grant exactly once")
                if result.status != 0 { break }
            }
            #expect(SecretTool.lookup(authEnvironmentId: "local-dev", sessionKey: "default") != nil, "no session was kept")
        }
    }
}
