import AuthTestSupport
import Foundation
import Testing

extension GNOMEIntegration {
    /// `portal-auth` keeps grants off its command line, refuses blank settings and addresses that are
    /// not web pages, and never prints a server's control characters to the terminal.
    @Suite(.serialized) struct CLIRedirectIntegrityTests {
        let emulator: Emulator
        let cli: CLI
        let browser = FakeBrowser()

        init() async throws {
            GLibLoopThread.ensureRunning()
            emulator = try #require(Emulator.shared, "the emulator must start (swift build first)")
            try await emulator.reset()
            cli = CLI(apiHost: emulator.apiHost)
            try #require(cli.run(["sign-out"]).status == 0)
        }

        func run(_ arguments: [String], input: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> CLI.Run {
            let result = cli.run(arguments, input: input)
            SecretShapes.expectNone(in: result, sourceLocation: sourceLocation)
            return result
        }

        @Test func handleRedirectReadsTheRedirectFromStandardInput() async throws {
            let login = run(["login-url", "google"])
            let authorizeUrl = try #require(login.last["authorizeUrl"] as? String)
            let redirect = try await browser.signIn(authorizeUrl: authorizeUrl, choices: ["email": "alice@example.com"])
            // Surrounding blank lines and spaces, as a paste brings them.
            let result = run(["handle-redirect", "-"], input: "\n  \(redirect)  \n\n")
            #expect(result.status == 0)
            #expect(result.last["result"] as? String == "authenticated")
            #expect(try await emulator.requests("POST", "/api/v3/auth/oauth/tokens").map(\.status) == [200])
            #expect(SecretTool.lookup(authEnvironmentId: "local-dev", sessionKey: "default") != nil)
        }

        @Test func nothingOnStandardInputIsAUsageError() async throws {
            let result = run(["handle-redirect", "-"], input: "\n   \n")
            #expect(result.status == 2)
            #expect(result.last["error"] as? String == "usage")
            #expect(try await emulator.requests("POST", "/api/v3/auth/oauth/tokens").isEmpty)
        }

        @Test func aBlankOptionValueIsAUsageErrorNotTheDefault() {
            for arguments in [["--session-key", " ", "session"], ["--api-host", "", "methods"],
                              ["--environment-id", "\t", "methods"]] {
                let result = run(arguments)
                #expect(result.status == 2, "\(arguments) fell back to a default")
                #expect(result.last["error"] as? String == "usage")
                #expect(result.stderr.contains("needs a value that is not blank"))
            }
        }

        @Test func anAuthorizeAddressThatIsNotAWebPageIsRefusedAndNotPrinted() throws {
            let server = try CannedHTTPServer(body: #"{"data":{"google":"file:///etc/passwd","apple":"javascript:alert(1)"}}"#)
            defer { server.stop() }
            for provider in ["google", "apple"] {
                let result = run(["--api-host", server.apiHost, "login-url", provider])
                #expect(result.status == 8)
                #expect(result.last["error"] as? String == "unsafeAuthorizeUrl")
                #expect(result.last["authorizeUrl"] == nil)
                #expect(!result.stdout.contains("/etc/passwd") && !result.stdout.contains("alert("))
                #expect(result.stderr.contains("not a web page"))
            }
        }

        @Test func aServersControlCharactersNeverReachTheTerminal() throws {
            // An error message with an escape sequence that would recolour or rewrite the terminal,
            // a bell and a line break that would forge a second output line.
            let server = try CannedHTTPServer(status: "500 Internal Server Error",
                                              body: "{\"error\":\"down \u{1B}[2J\u{1B}[31mfor maintenance\u{07}\n{\\\"result\\\":\\\"authenticated\\\"}\"}")
            defer { server.stop() }
            let result = run(["--api-host", server.apiHost, "methods"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("for maintenance"), "the server's words were not shown at all")
            let printed = result.stdout + result.stderr
            #expect(!printed.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
            #expect(result.lines.allSatisfy { $0["result"] as? String != "authenticated" }, "a forged line reached stdout")
        }
    }
}
