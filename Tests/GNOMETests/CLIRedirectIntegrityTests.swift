import AuthTestSupport
import Foundation
import Testing

extension GNOMEIntegration {
    /// `portal-auth` keeps grants off its command line, refuses blank settings and addresses that are
    /// not web pages, and never prints a server's control characters to the terminal.
    @Suite(.serialized) struct CLIRedirectIntegrityTests {
        let emulator: AdministeredEmulator
        let cli: CLI
        let browser = ProviderPageBrowser()

        init() async throws {
            GLibLoopThread.ensureRunning()
            emulator = try #require(AdministeredEmulator.shared, "the emulator must start (swift build first)")
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
            for arguments in [["--session-key", " ", "session"], ["--api-host", "", "methods"]] {
                let result = run(arguments)
                #expect(result.status == 2, "\(arguments) fell back to a default")
                #expect(result.last["error"] as? String == "usage")
                #expect(result.stderr.contains("needs a value that is not blank"))
            }
        }

        @Test func aBlankEnvironmentIdOrRedirectUrlIsTheCoresInvalidArgument() async throws {
            // As PortalSwift's PortalAuth(authEnvironmentId:redirectUrl:) refuses them, and with exit status 2.
            for (arguments, name) in [
                (["--environment-id", "\t", "methods"], "authEnvironmentId"),
                (["--redirect-url", " ", "login-url", "google"], "redirectUrl"),
                (["--redirect-url=", "methods"], "redirectUrl")
            ] {
                let result = run(arguments)
                #expect(result.status == 2, "\(arguments)")
                #expect(result.last["error"] as? String == "invalidArgument", "\(arguments)")
                #expect((result.last["message"] as? String)?.contains(name) == true, "\(arguments): \(result.stderr)")
            }
            #expect(try await emulator.requests("GET", "/api/v3/auth/methods").isEmpty)
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

        @Test func anUnreadableUserJwtSaysWhichCheckFailedAndSendsNothing() async throws {
            for (jwt, words) in [
                ("eyJhbGciOiJIUzI1NiJ9", "not a JWT"),
                ("eyJhbGciOiJIUzI1NiJ9.e$J!.sig", "not base64"),
                ("h." + Secrets.segment(Data("[1]".utf8)) + ".s", "not a JSON object"),
                (Secrets.jwt(claims: ["sub": "x"]), "no endUserId")
            ] {
                let result = run(["verify-totp", "123456", "--user-jwt", "-"], input: jwt + "\n")
                #expect(result.status == 2)
                #expect(result.last["error"] as? String == "invalidUserJwt")
                #expect((result.last["message"] as? String)?.contains(words) == true, "\(result.last)")
            }
            #expect(try await emulator.requests("POST", "/api/v3/auth/totps/validations").isEmpty)
        }

        @Test func aServersIdsAreEscapedOnStandardOutputAndInTheDebugLog() throws {
            // IDs the server chooses, with a right-to-left override, a C1 line break (NEL), a C1 CSI,
            // an escape sequence that would clear the screen and a left-to-right isolate.
            let endUserId = "eu_\u{202E}fdp.exe\u{85}\u{1B}[2J\u{2066}x"
            let clientId = "cl_\u{9B}31m\u{202D}\u{7F}"
            let server = try CannedHTTPServer(
                body: #"{"data":{"endUserId":"eu_\u202Efdp.exe\u0085\u001b[2J\u2066x","#
                    + #""clientId":"cl_\u009b31m\u202d\u007f","clientSessionToken":"\#(Secrets.sessionToken)"}}"#)
            defer { server.stop() }
            let configuration = [
                "--api-host", server.apiHost, "--environment-id", "local-dev",
                "--redirect-url", "io.github.portalauth.signin://auth/callback"
            ]
            let result = cli.run(
                configuration + ["handle-redirect", "-"],
                input: "io.github.portalauth.signin://auth/callback?token=\(Secrets.grant)&login_type=GOOGLE\n",
                extraEnvironment: ["PORTAL_DEBUG": "1"])
            SecretShapes.expectNone(in: result)
            defer { _ = cli.run(configuration + ["sign-out"]) }
            #expect(result.status == 0, "\(result.stderr)")

            func expectNoControls(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
                let raw = text.unicodeScalars.filter {
                    $0 != "\n" && ($0.properties.generalCategory == .control || $0.properties.isBidiControl)
                }
                #expect(
                    raw.isEmpty, "\(what) carries \(raw.map { "U+" + String($0.value, radix: 16, uppercase: true) })",
                    sourceLocation: sourceLocation)
            }
            // The JSON line: escaped bytes, still JSON that decodes to the very IDs the server sent.
            expectNoControls(result.stdout, "stdout")
            let bytes = Array(result.stdout.utf8)
            for sequence: [UInt8] in [[0x1B], [0xC2, 0x85], [0xC2, 0x9B], [0xE2, 0x80, 0xAE], [0xE2, 0x81, 0xA6], [0x7F]] {
                #expect(!bytes.indices.contains { bytes[$0...].starts(with: sequence) }, "stdout holds the bytes \(sequence)")
            }
            #expect(result.stdout.contains(#""endUserId":"eu_\u202efdp.exe\u0085\u001b[2J\u2066x""#), "\(result.stdout)")
            #expect(result.last["endUserId"] as? String == endUserId)
            #expect(result.last["clientId"] as? String == clientId)

            // The debug log names the end user, escaped the same way.
            expectNoControls(result.stderr, "the debug log")
            #expect(result.stderr.contains(#"session saved for end user eu_\u202efdp.exe\u0085\u001b[2J\u2066x"#), "\(result.stderr)")

            let restored = cli.run(configuration + ["session"], extraEnvironment: ["PORTAL_DEBUG": "1"])
            expectNoControls(restored.stdout + restored.stderr, "the session command's output")
            #expect((restored.last["session"] as? [String: Any])?["endUserId"] as? String == endUserId)
            #expect(restored.stderr.contains(#"restored the session for end user eu_\u202efdp.exe"#), "\(restored.stderr)")
        }

        @Test func aServersControlCharactersNeverReachTheTerminal() throws {
            // An error message with an escape sequence that would recolour or rewrite the terminal,
            // a bell and a line break that would forge a second output line.
            let server = try CannedHTTPServer(
                status: "500 Internal Server Error",
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
