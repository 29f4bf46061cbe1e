import AuthBase
import AuthTestSupport
import Foundation
import PortalAuth
import PortalAuthGNOME
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension GNOMEIntegration {
    /// The `portal-auth` binary end to end: emulator over loopback, the real login keyring.
    /// Redirect URLs and stored secrets hold grants and tokens: they are compared, never printed.
    @Suite(.serialized) struct CLIIntegrationTests {
        let emulator: AdministeredEmulator
        let cli: CLI
        let browser = ProviderPageBrowser()

        init() async throws {
            GLibLoopThread.ensureRunning()
            emulator = try #require(AdministeredEmulator.shared, "the emulator must start (swift build first)")
            try await emulator.reset()
            cli = CLI(apiHost: emulator.apiHost)
            // Start signed out; the keyring outlives the emulator's reset.
            let signOut = cli.run(["sign-out"])
            try #require(signOut.status == 0)
        }

        // MARK: helpers

        /// Runs the CLI and checks its output holds no secret.
        func run(
            _ arguments: [String], input: String? = nil, withoutKeyring: Bool = false,
            sourceLocation: SourceLocation = #_sourceLocation
        ) -> CLI.Run {
            let result = cli.run(arguments, input: input, viaDBusSessionWithoutKeyring: withoutKeyring)
            SecretShapes.expectNone(in: result, sourceLocation: sourceLocation)
            return result
        }

        /// A fresh provider round trip; the returned redirect URL carries a single-use grant.
        func redirectURL(_ provider: String, _ choices: [String: String]) async throws -> String {
            let login = run(["login-url", provider])
            try #require(login.status == 0)
            let authorizeUrl = try #require(login.last["authorizeUrl"] as? String)
            return try await browser.signIn(authorizeUrl: authorizeUrl, choices: choices)
        }

        /// The keyring item as `secret-tool` reads it.
        func storedSession() -> [String: String]? {
            guard let stored = SecretTool.lookup(authEnvironmentId: "local-dev", sessionKey: "default"),
                let object = try? JSONSerialization.jsonObject(with: Data(stored.utf8)) as? [String: String]
            else { return nil }
            return object
        }

        func storedSecretText() -> String? { SecretTool.lookup(authEnvironmentId: "local-dev", sessionKey: "default") }

        /// `GET /api/v3/clients/me` with the stored token: the session really works at Portal.
        func clientId(usingToken token: String) async throws -> String? {
            var request = URLRequest(url: emulator.baseURL.appendingPathComponent("api/v3/clients/me"))
            request.setValue("local-dev", forHTTPHeaderField: "x-portal-auth-environment-id")
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            let (data, response) = try await URLSession.shared.data(for: request)
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { return nil }
            return ((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["data"] as? [String: Any])?["id"] as? String
        }

        func expectStoredSessionMatches(_ line: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let stored = try #require(storedSession(), "no session in the keyring", sourceLocation: sourceLocation)
            #expect(Set(stored.keys) == ["clientSessionToken", "endUserId"], sourceLocation: sourceLocation)
            #expect(stored["endUserId"] == line["endUserId"] as? String, sourceLocation: sourceLocation)
            // Keys sorted, as Portal's SDKs write it.
            #expect(storedSecretText()?.hasPrefix(#"{"clientSessionToken":"#) == true, sourceLocation: sourceLocation)
            let token = stored["clientSessionToken"] ?? ""
            #expect(token.hasPrefix("pst_"), "the stored token is not a session token", sourceLocation: sourceLocation)
            let workingClient = try await clientId(usingToken: token)
            #expect(
                workingClient != nil && workingClient == line["clientId"] as? String,
                "the stored token does not reach the signed-in client", sourceLocation: sourceLocation)
        }

        // MARK: commands without a sign-in

        @Test func methodsListsWhatTheEnvironmentAllows() {
            let result = run(["methods"])
            #expect(result.status == 0)
            #expect(result.last["allowedAuthMethods"] as? [String] == ["EMAIL_MAGIC_LINK", "GOOGLE", "APPLE"])
            #expect(result.last["autoCreateWallet"] as? Bool == true)
        }

        @Test func usageErrorsExitWithTwo() {
            let unknown = run(["frobnicate"])
            #expect(unknown.status == 2)
            #expect(unknown.last["error"] as? String == "usage")
            let missingJwt = run(["verify-totp", "123456"])
            #expect(missingJwt.status == 2)
            let badProvider = run(["login-url", "myspace"])
            #expect(badProvider.status == 2)
            let help = run(["--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("handle-redirect -"))
        }

        @Test func aRedirectURLTypedWithoutItsCommandIsAUsageErrorThatDoesNotEchoTheGrant() {
            let grant = "pg_" + String(repeating: "Q7", count: 16)
            let forgotCommand = run(["io.github.portalauth.signin://auth/callback?token=\(grant)&login_type=GOOGLE"])
            #expect(forgotCommand.status == 2)
            #expect(forgotCommand.last["error"] as? String == "usage")
            let asOption = run(["--\(grant)", "session"])
            #expect(asOption.status == 2)
            let echoed = (forgotCommand.stdout + forgotCommand.stderr + asOption.stdout + asOption.stderr).contains(grant)
            #expect(!echoed, "the usage error repeated the grant")
        }

        @Test func aForeignURLIsNotForThisApp() {
            let result = run(["handle-redirect", "-"], input: "https://example.com/callback?token=whatever&login_type=GOOGLE")
            #expect(result.status == 3)
            #expect(result.last["result"] as? String == "notForThisApp")
        }

        @Test func sessionIsNullWhenSignedOut() {
            let result = run(["session"])
            #expect(result.status == 0)
            #expect(result.lines.count == 1)
            #expect(result.last["session"] is NSNull)
        }

        // MARK: sign-ins

        @Test func googleGrantIsExchangedStoredAndRestoredInANewProcess() async throws {
            let redirect = try await redirectURL("google", ["email": "alice@example.com"])
            let result = run(["handle-redirect", "-"], input: redirect)
            #expect(result.status == 0)
            #expect(result.last["result"] as? String == "authenticated")
            let endUserId = try #require(result.last["endUserId"] as? String)
            #expect(!endUserId.isEmpty)
            try await expectStoredSessionMatches(result.last)

            let restored = run(["session"])
            #expect(restored.status == 0)
            #expect((restored.last["session"] as? [String: Any])?["endUserId"] as? String == endUserId)
        }

        @Test func appleGrantIsExchangedAndStoredAndHideMyEmailIsAnotherUser() async throws {
            let shared = run(
                ["handle-redirect", "-"], input: try await redirectURL("apple", ["email": "alice@example.com", "share": "share"]))
            #expect(shared.status == 0)
            #expect(shared.last["result"] as? String == "authenticated")
            try await expectStoredSessionMatches(shared.last)

            let hidden = run(
                ["handle-redirect", "-"], input: try await redirectURL("apple", ["email": "alice@example.com", "share": "hide"]))
            #expect(hidden.status == 0)
            #expect(hidden.last["result"] as? String == "authenticated")
            let sharedUser = shared.last["endUserId"] as? String
            let hiddenUser = hidden.last["endUserId"] as? String
            #expect(sharedUser != nil && hiddenUser != nil && sharedUser != hiddenUser)
            try await expectStoredSessionMatches(hidden.last)
        }

        @Test func magicLinkIsSentAndItsLinkSignsIn() async throws {
            let sent = run(["send-magic-link", "Alice@Example.com"])
            #expect(sent.status == 0)
            #expect(sent.last["sent"] as? Bool == true)
            let mail = try #require(try await emulator.outbox().last)
            #expect(mail.email == "alice@example.com")
            let result = run(["handle-redirect", "-"], input: mail.link)
            #expect(result.status == 0)
            #expect(result.last["result"] as? String == "authenticated")
            try await expectStoredSessionMatches(result.last)
        }

        @Test func totpSignInNeedsTheCodeAndStoresOnlyAfterIt() async throws {
            let pending = run(["handle-redirect", "-"], input: try await redirectURL("google", ["email": "totp@example.com"]))
            #expect(pending.status == 0)
            #expect(pending.last["result"] as? String == "totpRequired")
            let userJwt = try #require(pending.last["userJwt"] as? String)
            let totpLink = try #require(pending.last["totpLink"] as? String)
            #expect(totpLink.hasPrefix("otpauth://totp/"))
            #expect(storedSession() == nil, "nothing may be stored before the code")

            let secret = try #require(URLComponents(string: totpLink)?.queryItems?.first { $0.name == "secret" }?.value)
            #expect(secret == (try await emulator.totpSecret(email: "totp@example.com")))
            let code = Subprocess.run("/usr/bin/oathtool", ["--totp", "-b", secret]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            try #require(code.count == 6)

            // A wrong code is refused and leaves the JWT usable.
            let wrongCode = String(format: "%06d", (Int(code)! + 500_000) % 1_000_000)
            let refused = run(["verify-totp", wrongCode, "--user-jwt", "-"], input: userJwt + "\n")
            #expect(refused.status == 4)
            #expect(refused.last["error"] as? String == "unauthorized")
            #expect(storedSession() == nil)

            let verified = run(["verify-totp", code, "--user-jwt", "-"], input: userJwt + "\n")
            #expect(verified.status == 0)
            #expect(verified.last["result"] as? String == "authenticated")
            #expect(verified.last["endUserId"] as? String == pending.last["endUserId"] as? String)
            try await expectStoredSessionMatches(verified.last)
        }

        @Test func aRepeatedRedirectInOneProcessIsExchangedOnce() async throws {
            let redirect = try await redirectURL("google", ["email": "alice@example.com"])
            let result = run(["handle-redirect", "-"], input: [redirect, redirect].joined(separator: "\n"))
            #expect(result.status == 0)
            #expect(result.lines.count == 2)
            #expect(result.lines.allSatisfy { $0["result"] as? String == "authenticated" })
            #expect(result.lines[0]["endUserId"] as? String == result.lines[1]["endUserId"] as? String)
            #expect(try await emulator.requests("POST", "/api/v3/auth/oauth/tokens").count == 1)
            try await expectStoredSessionMatches(result.last)
        }

        @Test func signOutDeletesTheItemAndTheSpentGrantIsRefused() async throws {
            let redirect = try await redirectURL("google", ["email": "alice@example.com"])
            #expect(run(["handle-redirect", "-"], input: redirect).status == 0)
            #expect(storedSession() != nil)

            let signOut = run(["sign-out"])
            #expect(signOut.status == 0)
            #expect(signOut.last["signedOut"] as? Bool == true)
            #expect(storedSecretText() == nil)
            #expect(run(["session"]).last["session"] is NSNull)

            let reused = run(["handle-redirect", "-"], input: redirect)
            #expect(reused.status == 4)
            #expect(reused.last["error"] as? String == "unauthorized")
            #expect(storedSecretText() == nil)
        }

        @Test func withoutASecretServiceTheGrantIsNotSpentAndTheAdviceSaysWhatToInstall() async throws {
            let redirect = try await redirectURL("google", ["email": "alice@example.com"])
            let result = run(["handle-redirect", "-"], input: redirect, withoutKeyring: true)
            #expect(result.status == 6)
            #expect(result.last["error"] as? String == "sessionStorageFailure")
            let message = result.last["message"] as? String ?? ""
            #expect(message.contains("No keyring service is running"))
            #expect(message.contains("gnome-keyring") && message.contains("kwalletd") && message.contains("KeePassXC"))
            #expect(!result.lines.contains { $0["result"] as? String == "authenticated" })
            // Refused before anything was sent: the grant is unspent, so no session exists that nobody holds.
            #expect(try await emulator.requests("POST", "/api/v3/auth/oauth/tokens").isEmpty, "the grant was spent without a keyring")
            #expect(storedSecretText() == nil)
            // Once a keyring is there, the same redirect still signs in.
            let later = run(["handle-redirect", "-"], input: redirect)
            #expect(later.status == 0)
            #expect(storedSecretText() != nil)
        }

        @Test(arguments: [
            ["login-url", "google"], ["send-magic-link", "alice@example.com"],
            ["verify-totp", "123456", "--user-jwt", "-"], ["turnkey", "login-url", "google"],
            ["turnkey", "complete-oauth", "--oidc-token", "-", "--public-key", "02ab"]
        ])
        func withoutASecretServiceNothingThatStartsASignInIsSent(_ arguments: [String]) async throws {
            let before = try await emulator.requests().count
            let result = run(arguments, input: "not-a-secret\n", withoutKeyring: true)
            #expect(result.status == 6)
            #expect(result.last["error"] as? String == "sessionStorageFailure")
            #expect(try await emulator.requests().count == before, "a request went out though no keyring could keep its session")
        }

        @Test func aDroppedConnectionAfterTheGrantWasSpentIsATransportErrorThenUnauthorized() async throws {
            let redirect = try await redirectURL("google", ["email": "alice@example.com"])
            try await emulator.fault(path: "/api/v3/auth/oauth/tokens", kind: "drop")
            let dropped = run(["handle-redirect", "-"], input: redirect)
            #expect(dropped.status == 7)
            #expect(dropped.last["error"] as? String == "connectionLost")
            #expect(storedSecretText() == nil)

            let retried = run(["handle-redirect", "-"], input: redirect)
            #expect(retried.status == 4)
            #expect(retried.last["error"] as? String == "unauthorized")
            #expect(try await emulator.requests("POST", "/api/v3/auth/oauth/tokens").count == 2)
        }

        @Test func severalURLsExitWithTheLastOnesStatus() async throws {
            let redirect = try await redirectURL("google", ["email": "alice@example.com"])
            let result = run(["handle-redirect", "-"], input: [redirect, "https://example.com/elsewhere"].joined(separator: "\n"))
            #expect(result.lines.count == 2)
            #expect(result.lines.first?["result"] as? String == "authenticated")
            #expect(result.last["result"] as? String == "notForThisApp")
            #expect(result.status == 3)
        }

        // MARK: failures and their exit statuses

        @Test func cancellingAtTheProviderIsAnAuthenticationFailure() async throws {
            let login = run(["login-url", "google"])
            let authorizeUrl = try #require(login.last["authorizeUrl"] as? String)
            let redirect = try await browser.signIn(authorizeUrl: authorizeUrl, choices: [:], action: "cancel")
            #expect(redirect.contains("error=oauth_failed"))
            let result = run(["handle-redirect", "-"], input: redirect)
            #expect(result.status == 5)
            #expect(result.last["error"] as? String == "authenticationFailed")
            #expect(try await emulator.requests("POST", "/api/v3/auth/oauth/tokens").isEmpty)
        }

        @Test func anUnknownEnvironmentIsUnauthorized() {
            let result = run(["--environment-id", "no-such-environment", "methods"])
            #expect(result.status == 4)
            #expect(result.last["error"] as? String == "unauthorized")
        }

        @Test func aSuccessAnswerWithoutItsDataEnvelopeIsAnInvalidResponse() throws {
            let server = try CannedHTTPServer(body: #"{"allowedAuthMethods":["GOOGLE"]}"#)
            defer { server.stop() }
            let result = run(["--api-host", server.apiHost, "methods"])
            #expect(result.status == 8)
            #expect(result.last["error"] as? String == "malformedResponse")
            #expect(result.last["allowedAuthMethods"] == nil)
        }

        @Test func aProviderTheEnvironmentDoesNotOfferIsUnavailable() async throws {
            let configPath = TestScratch.directory + "/portal-google-only-\(getpid()).json"
            let config =
                #"{"environments": [{"id": "local-dev", "authMethods": ["GOOGLE"], "redirectUrls": ["io.github.portalauth.signin://auth/callback"]}]}"#
            try config.write(toFile: configPath, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: configPath) }
            let googleOnly = try AdministeredEmulator(arguments: ["--config", configPath])
            let apple = run(["--api-host", googleOnly.apiHost, "login-url", "apple"])
            #expect(apple.status == 10)
            #expect(apple.last["error"] as? String == "authMethodUnavailable")
            let google = run(["--api-host", googleOnly.apiHost, "login-url", "google"])
            #expect(google.status == 0)
        }

        @Test func nothingListeningIsATransportFailure() {
            let result = run(["--api-host", "127.0.0.1:1", "methods"])
            #expect(result.status == 7)
            #expect(result.last["error"] as? String == "cannotConnect")
        }

        @Test func anEmulatorThatIsNotRunningIsNamedWithHowToStartIt() {
            let stopped = CLI(apiHost: "127.0.0.1:1").run(["methods"])
            #expect(stopped.status == 7)
            #expect(stopped.last["error"] as? String == "cannotConnect")
            let message = stopped.last["message"] as? String ?? ""
            #expect(message.contains("127.0.0.1:1"), "the address is not named: \(message)")
            #expect(message.contains("the local test environment (the auth emulator) is not running"))
            #expect(message.contains("script/run") && message.contains("portal-auth-emulator --port 1"))
            #expect(!message.contains("online"), "an emulator on this computer needs no network: \(message)")
            #expect(stopped.stderr.contains(message))
        }

        @Test func aLocalServerThatIsNotTheEmulatorIsNamedWithItsPort() {
            var local = CLI(apiHost: "127.0.0.1:1")
            local.environment = ["PORTAL_AUTH_EMULATOR_HOST": "", "PORTAL_AUTH_ENVIRONMENT_ID": "local-dev"]
            let result = local.run(["methods"])
            #expect(result.status == 7)
            let message = result.last["message"] as? String ?? ""
            #expect(message.hasPrefix("Nothing answered at 127.0.0.1:1 on this computer."), "\(message)")
            #expect(!message.contains("emulator"))
        }

        @Test func versionIsThePackageVersion() {
            for arguments in [["--version"], ["turnkey", "--version"], ["--version", "methods"]] {
                let result = run(arguments)
                #expect(result.status == 0)
                #expect(result.stdout == "portal-auth \(ProductVersion.current)\n", "\(arguments)")
            }
            #expect(run(["--help"]).stdout.contains("--version"))
        }

        @Test func anAddressThatIsNotAnEmailIsRefusedBeforeAnythingIsSent() async throws {
            for word in ["not-an-email", "two@at@example.com", "alice@localhost", "al ice@example.com", "@example.com"] {
                let result = run(["send-magic-link", word])
                #expect(result.status == 2, "\(word)")
                #expect(result.last["error"] as? String == "invalidArgument")
                #expect((result.last["message"] as? String)?.contains("is not an email address, so no sign-in link was sent") == true)
            }
            // Something pasted by mistake is not repeated.
            let grant = "pg_" + String(repeating: "Q7", count: 16)
            let pasted = run(["send-magic-link", "io.github.portalauth.signin://auth/callback?token=\(grant)"])
            #expect(pasted.status == 2)
            #expect(!(pasted.stdout + pasted.stderr).contains(grant))
            #expect(try await emulator.requests("POST", "/api/v3/auth/magic-links").isEmpty, "a link request was sent")
            #expect(run(["send-magic-link", "alice@example.com"]).status == 0)
        }

        @Test func tooManyMagicLinksAreRateLimited() {
            var statuses: [Int32] = []
            var last = CLI.Run(status: -1, stdout: "", stderr: "")
            while statuses.count < 12 && statuses.last != 9 {
                last = run(["send-magic-link", "busy@example.com"])
                statuses.append(last.status)
            }
            #expect(statuses.first == 0)
            #expect(statuses.last == 9)
            #expect(statuses.dropLast().allSatisfy { $0 == 0 })
            #expect(last.last["error"] as? String == "rateLimited")
        }

        @Test func theCLIRunsItsMainActorWorkUnderTheGLibLoop() async throws {
            // portal-auth runs every command as a MainActor task under g_main_loop_run (MainLoopBridge.run);
            // without the bridge the task never starts and the process hangs until the runner's timeout.
            let started = Date()
            let result = run(["methods"])
            #expect(result.status == 0)
            #expect(Date().timeIntervalSince(started) < 20)
        }
    }
}
