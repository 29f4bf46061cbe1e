import AuthBase
import Foundation
import PortalAuthGNOME
import Testing

extension GNOMEIntegration {
    /// `portal-auth turnkey` end to end: the emulator over loopback, its provider pages driven like a
    /// browser without JavaScript, and the real login keyring read back with `secret-tool`.
    /// Tokens, codes and keys are compared, never printed.
    @Suite(.serialized) struct TurnkeyCLIIntegrationTests {
        let emulator: AdministeredEmulator
        let cli: TurnkeyCommandLine
        let browser = ProviderPageBrowser()

        init() async throws {
            GLibLoopThread.ensureRunning()
            emulator = try #require(AdministeredEmulator.shared, "the emulator must start (swift build first)")
            try await emulator.reset()
            cli = TurnkeyCommandLine(baseURL: emulator.baseURL)
            // The keyring outlives the emulator's reset: start with no Turnkey item at all.
            TurnkeyKeyring.clear()
        }

        // MARK: helpers

        /// Runs the CLI and checks its output holds no secret.
        func run(_ arguments: [String], input: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> CLI.Run {
            let result = cli.run(arguments, input: input)
            SecretShapes.expectNone(in: result, sourceLocation: sourceLocation)
            return result
        }

        struct Started {
            let line: [String: Any]
            let redirect: String
            var publicKey: String { line["publicKey"] as? String ?? "" }
            var state: String {
                let url = URLComponents(string: line["authorizeUrl"] as? String ?? "")
                return url?.queryItems?.first { $0.name == "state" }?.value ?? ""
            }
        }

        /// `login-url`, then the provider's page as a person would use it; the callback carries a token or code.
        func signInAtProvider(
            _ provider: String, email: String = "alice@example.com", action: String = "continue",
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws -> Started {
            let login = run(["login-url", provider], sourceLocation: sourceLocation)
            try #require(login.status == 0, "login-url failed: \(login.stderr)", sourceLocation: sourceLocation)
            let authorizeUrl = try #require(login.last["authorizeUrl"] as? String, sourceLocation: sourceLocation)
            let redirect = try await browser.signIn(authorizeUrl: authorizeUrl, choices: ["email": email], action: action)
            return Started(line: login.last, redirect: redirect)
        }

        /// `handle-redirect -` with the callback on stdin.
        func handle(_ redirect: String, _ options: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) -> CLI.Run {
            run(["handle-redirect", "-"] + options, input: redirect + "\n", sourceLocation: sourceLocation)
        }

        func expectAuthenticated(
            _ result: CLI.Run, action: String, sessionKey: String = "default",
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
            let line = result.last
            #expect(line["result"] as? String == "authenticated", sourceLocation: sourceLocation)
            #expect(line["action"] as? String == action, sourceLocation: sourceLocation)
            #expect(line["sessionKey"] as? String == sessionKey, sourceLocation: sourceLocation)
            #expect((line["organizationId"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
            #expect((line["userId"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
            let expiresAt = (line["expiresAt"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }
            #expect(expiresAt.map { $0 > Date() } == true, "expiresAt is not a future ISO 8601 time", sourceLocation: sourceLocation)
        }

        /// The stored session is the one the line reports, bound to the key the sign-in made, and that key is kept.
        func expectStored(
            _ line: [String: Any], sessionKey: String = "default", publicKey: String,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let claims = TurnkeyKeyring.sessionClaims(sessionKey)
            #expect(claims?["organization_id"] as? String == line["organizationId"] as? String, sourceLocation: sourceLocation)
            #expect(claims?["user_id"] as? String == line["userId"] as? String, sourceLocation: sourceLocation)
            #expect(claims?["public_key"] as? String == publicKey, sourceLocation: sourceLocation)
            #expect(
                TurnkeyKeyring.privateKey(publicKey)?.count == 64, "the session's private key is not in the keyring",
                sourceLocation: sourceLocation)
        }

        // MARK: providers and sign-ins

        @Test func providersListsWhatTheAuthProxyConfigEnables() async throws {
            let result = run(["providers"])
            #expect(result.status == 0)
            #expect(result.last["enabledProviders"] as? [String] == ["google", "apple", "discord", "x"])
            let configs = try await emulator.turnkeyState()["authProxyConfigs"] as? [[String: Any]]
            #expect(result.last["organizationId"] as? String == configs?.first?["organizationId"] as? String)
        }

        @Test(arguments: ["google", "apple", "discord", "x"])
        func signsUpThenLogsInAgainToTheSameOrganization(provider: String) async throws {
            let first = try await signInAtProvider(provider)
            #expect(first.line["provider"] as? String == provider)
            let signup = handle(first.redirect)
            expectAuthenticated(signup, action: "signup")
            expectStored(signup.last, publicKey: first.publicKey)
            #expect(TurnkeyKeyring.pending(state: first.state) == nil, "the finished sign-in is no longer pending")

            // The session works at Turnkey: a stamped whoami.
            let whoami = run(["whoami"])
            #expect(whoami.status == 0)
            #expect(whoami.last["organizationId"] as? String == signup.last["organizationId"] as? String)
            #expect(whoami.last["userId"] as? String == signup.last["userId"] as? String)

            #expect(run(["sign-out"]).status == 0)
            let second = try await signInAtProvider(provider)
            let login = handle(second.redirect)
            expectAuthenticated(login, action: "login")
            #expect(login.last["organizationId"] as? String == signup.last["organizationId"] as? String)
            #expect(login.last["userId"] as? String == signup.last["userId"] as? String)
            expectStored(login.last, publicKey: second.publicKey)
            #expect((try await emulator.turnkeyState()["organizations"] as? [Any])?.count == 1, "one user, one sub-organization")
        }

        @Test func twoSessionKeysHoldTwoSessionsAndSignOutTakesOnlyOne() async throws {
            let personal = try await signInAtProvider("google", email: "alice@example.com")
            expectAuthenticated(handle(personal.redirect, ["--session-key", "personal"]), action: "signup", sessionKey: "personal")
            let work = try await signInAtProvider("discord", email: "bob@example.com")
            let workLine = handle(work.redirect, ["--session-key", "work"])
            expectAuthenticated(workLine, action: "signup", sessionKey: "work")

            #expect(run(["sessions"]).last["sessionKeys"] as? [String] == ["personal", "work"])
            let session = run(["session", "--session-key", "work"]).last["session"] as? [String: Any]
            #expect(session?["sessionKey"] as? String == "work")
            #expect(session?["organizationId"] as? String == workLine.last["organizationId"] as? String)
            #expect(session?["publicKey"] as? String == work.publicKey)
            #expect(run(["whoami", "--session-key", "work"]).last["userId"] as? String == workLine.last["userId"] as? String)
            #expect(run(["session"]).last["session"] is NSNull, "nothing under the default key")

            let signOut = run(["sign-out", "--session-key", "personal"])
            #expect(signOut.status == 0 && signOut.last["signedOut"] as? Bool == true)
            #expect(TurnkeyKeyring.session("personal") == nil && TurnkeyKeyring.privateKey(personal.publicKey) == nil)
            #expect(TurnkeyKeyring.session("work") != nil && TurnkeyKeyring.privateKey(work.publicKey) != nil)
            #expect(run(["sessions"]).last["sessionKeys"] as? [String] == ["work"])
        }

        @Test func aTakenSessionKeyIsAUsageErrorAndTheCodeIsNotSpent() async throws {
            expectAuthenticated(handle(try await signInAtProvider("google").redirect), action: "signup")
            let discord = try await signInAtProvider("x", email: "bob@example.com")
            let taken = handle(discord.redirect)
            #expect(taken.status == 2)
            #expect(taken.last["error"] as? String == "keyAlreadyExists")
            #expect(try await emulator.turnkeyRequests().filter { $0.path.hasSuffix("/oauth2_authenticate") }.isEmpty)
            // Still pending: it finishes under another key.
            expectAuthenticated(handle(discord.redirect, ["--session-key", "other"]), action: "signup", sessionKey: "other")
        }

        @Test func oidcOnlyPrintsTheTokenStoresNothingAndCompleteOAuthFinishes() async throws {
            let started = try await signInAtProvider("apple")
            let handed = handle(started.redirect, ["--oidc-only"])
            #expect(handed.status == 0)
            #expect(handed.last["result"] as? String == "oidcToken")
            #expect(handed.last["publicKey"] as? String == started.publicKey)
            #expect(handed.last["providerName"] as? String == "apple")
            let token = try #require(handed.last["oidcToken"] as? String)
            #expect(TurnkeyKeyring.sessionCount == 0, "nothing stored")
            #expect(TurnkeyKeyring.privateKey(started.publicKey) != nil, "the key waits for complete-oauth")
            #expect(TurnkeyKeyring.pending(state: started.state)?["redeemed"] as? Bool == true)
            #expect(try await emulator.turnkeyRequests().filter { $0.path.hasSuffix("/oauth_login") }.isEmpty)

            // The state is spent: the same callback again is refused.
            #expect(handle(started.redirect, ["--oidc-only"]).status == 5)

            let completed = run(
                [
                    "complete-oauth", "--oidc-token", "-", "--public-key", started.publicKey,
                    "--provider-name", "apple", "--session-key", "later"
                ], input: token + "\n")
            expectAuthenticated(completed, action: "signup", sessionKey: "later")
            expectStored(completed.last, sessionKey: "later", publicKey: started.publicKey)
            #expect(TurnkeyKeyring.pendingCount == 0)
        }

        @Test func anIdTokenBoundThroughTknonceSignsIn() async throws {
            // Turnkey binds the key through `nonce` or `tknonce`. An app whose OIDC client picks its own
            // nonce (an Auth0 tenant, say) asks the provider directly and puts the key's nonce in `tknonce`.
            let login = run(["login-url", "google"])
            let origin = try #require(URLComponents(string: login.last["authorizeUrl"] as? String ?? "")?.queryItems)
            func query(_ name: String) -> String { origin.first { $0.name == name }?.value ?? "" }
            let publicKey = try #require(login.last["publicKey"] as? String)
            let items = [
                ("client_id", query("clientId")), ("redirect_uri", query("redirectUri")), ("response_type", "code id_token"),
                ("nonce", String(repeating: "ab", count: 32)), ("tknonce", query("nonce")), ("state", query("state"))
            ]
            let providerPage = emulator.baseURL.absoluteString + "/idp/google/authorize?" + JavaURLEncoder.encode(items)
            let redirect = try await browser.signIn(authorizeUrl: providerPage, choices: ["email": "alice@example.com"])
            let signedIn = handle(redirect)
            expectAuthenticated(signedIn, action: "signup")
            expectStored(signedIn.last, publicKey: publicKey)
            #expect(try await emulator.turnkeyRequests().filter { $0.path.hasSuffix("/oauth_login") }.map(\.status) == [200])
        }

        @Test func completeOAuthWithAKeyThisMachineNeverMadeIsRefusedBeforeAnythingIsSent() async throws {
            let started = try await signInAtProvider("google")
            let token = try #require(handle(started.redirect, ["--oidc-only"]).last["oidcToken"] as? String)
            let stranger = "02" + String(repeating: "7f", count: 32)
            let refused = run(["complete-oauth", "--oidc-token", "-", "--public-key", stranger], input: token + "\n")
            #expect(refused.status == 5)
            #expect(refused.last["error"] as? String == "keyNotFound")
            #expect(try await emulator.turnkeyRequests().filter { $0.path.hasSuffix("/account") }.isEmpty)
        }

        @Test func refreshReplacesTheSessionOnANewKeyAndTheOldKeyGoes() async throws {
            let started = try await signInAtProvider("discord")
            let signedIn = handle(started.redirect)
            expectAuthenticated(signedIn, action: "signup")
            try await emulator.advanceClock(seconds: 300)

            let refreshed = run(["refresh"])
            expectAuthenticated(refreshed, action: "refresh")
            #expect(refreshed.last["organizationId"] as? String == signedIn.last["organizationId"] as? String)
            let before = (signedIn.last["expiresAt"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }
            let after = (refreshed.last["expiresAt"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }
            #expect(before != nil && after != nil && after! > before!, "the new session lasts longer")

            let newKey = try #require(TurnkeyKeyring.sessionClaims("default")?["public_key"] as? String)
            #expect(newKey != started.publicKey)
            #expect(TurnkeyKeyring.privateKey(newKey) != nil)
            #expect(TurnkeyKeyring.privateKey(started.publicKey) == nil, "the old key is deleted")
            #expect(run(["session"]).last["session"].flatMap { ($0 as? [String: Any])?["publicKey"] as? String } == newKey)
            #expect(run(["whoami"]).status == 0, "the new key stamps")
            let stamped = try await emulator.turnkeyRequests().filter { $0.path.hasSuffix("/stamp_login") }
            #expect(stamped.map(\.status) == [200])
            let live = try await emulator.turnkeyState()["sessions"] as? [[String: Any]] ?? []
            #expect(live.contains { $0["publicKey"] as? String == newKey })
        }

        @Test func signOutRemovesTheSessionAndItsKeyFromTheKeyring() async throws {
            let started = try await signInAtProvider("x")
            expectAuthenticated(handle(started.redirect), action: "signup")
            #expect(TurnkeyKeyring.session("default") != nil)
            #expect(TurnkeyKeyring.keyCount == 1)

            let signOut = run(["sign-out"])
            #expect(signOut.status == 0 && signOut.last["signedOut"] as? Bool == true)
            #expect(TurnkeyKeyring.session("default") == nil)
            #expect(TurnkeyKeyring.keyCount == 0 && TurnkeyKeyring.sessionCount == 0 && TurnkeyKeyring.pendingCount == 0)
            #expect(run(["session"]).last["session"] is NSNull)
            let whoami = run(["whoami"])
            #expect(whoami.status == 4 && whoami.last["error"] as? String == "sessionNotFound")
            #expect(run(["sign-out"]).status == 0, "signing out of nothing is fine")
        }

        // MARK: refusals

        @Test func aRedirectWithAForeignStateIsRefusedAndNothingIsSent() async throws {
            let started = try await signInAtProvider("discord")
            let realState = started.state
            let forged = started.redirect.replacingOccurrences(of: "state=\(realState)", with: "state=forged-state-value")
            #expect(forged != started.redirect)
            let refused = handle(forged)
            #expect(refused.status == 5)
            #expect(refused.last["error"] as? String == "unknownState")
            let sent = try await emulator.turnkeyRequests().filter { !$0.path.hasSuffix("/wallet_kit_config") }
            #expect(sent.isEmpty, "nothing may reach the Auth Proxy for a foreign state")
            #expect(TurnkeyKeyring.pending(state: realState) != nil, "the real sign-in is untouched")
            expectAuthenticated(handle(started.redirect), action: "signup")
        }

        @Test func portalsAndTurnkeysRedirectsAreNotEachOthers() async throws {
            let started = try await signInAtProvider("google")
            let portalCLI = CLI(apiHost: emulator.apiHost)
            let portalTakesTurnkeys = portalCLI.run(["handle-redirect", "-"], input: started.redirect + "\n")
            #expect(portalTakesTurnkeys.status == 3 && portalTakesTurnkeys.last["result"] as? String == "notForThisApp")
            let turnkeyTakesPortals = handle(
                "io.github.portalauth.signin://auth/callback?token=pg_\(String(repeating: "Q7", count: 12))&login_type=GOOGLE")
            #expect(turnkeyTakesPortals.status == 3 && turnkeyTakesPortals.last["result"] as? String == "notForThisApp")
            expectAuthenticated(handle(started.redirect), action: "signup")
        }

        @Test func cancellingAtTheProviderEndsThatSignIn() async throws {
            let started = try await signInAtProvider("x", action: "cancel")
            #expect(started.redirect.contains("error=access_denied"))
            let result = handle(started.redirect)
            #expect(result.status == 5)
            #expect(result.last["error"] as? String == "providerError")
            #expect(TurnkeyKeyring.pendingCount == 0 && TurnkeyKeyring.keyCount == 0)
            #expect(try await emulator.turnkeyRequests().filter { !$0.path.hasSuffix("/wallet_kit_config") }.isEmpty)
        }

        @Test func aCallbackHandledTwiceSpendsItsCodeOnce() async throws {
            let started = try await signInAtProvider("discord")
            // Twice in one process: the second replays.
            let both = run(["handle-redirect", "-"], input: started.redirect + "\n" + started.redirect + "\n")
            #expect(both.status == 0 && both.lines.count == 2)
            #expect(both.lines.allSatisfy { $0["result"] as? String == "authenticated" })
            // Again in a new process: the state is spent, refused before anything is sent.
            let again = handle(started.redirect)
            #expect(again.status == 5 && again.last["error"] as? String == "unknownState")
            #expect(try await emulator.turnkeyRequests().filter { $0.path.hasSuffix("/oauth2_authenticate") }.count == 1)
        }

        @Test func loginURLPrintsOnlyPublicValuesAndKeepsTheRestInTheKeyring() async throws {
            let login = run(["login-url", "x", "--client-id", "emulator-turnkey-x"])
            #expect(login.status == 0)
            #expect(Set(login.last.keys) == ["authorizeUrl", "provider", "publicKey"])
            let url = try #require(URLComponents(string: login.last["authorizeUrl"] as? String ?? ""))
            let state = try #require(url.queryItems?.first { $0.name == "state" }?.value)
            let pending = try #require(TurnkeyKeyring.pending(state: state))
            let verifier = try #require(pending["codeVerifier"] as? String)
            #expect(verifier.count == 43)
            #expect(!(login.stdout + login.stderr).contains(verifier), "the verifier stays in the keyring")
            let publicKey = try #require(login.last["publicKey"] as? String)
            let privateKey = try #require(TurnkeyKeyring.privateKey(publicKey))
            #expect(!(login.stdout + login.stderr).contains(privateKey))
            #expect(pending["publicKey"] as? String == publicKey)
        }

        @Test func usageErrorsExitWithTwo() {
            for arguments in [
                ["frobnicate"], ["login-url", "myspace"], ["providers", "--client-id", "x"],
                ["complete-oauth", "--public-key", "02ab"], ["login-url", "google", "--state", "novalue"],
                ["--auth-proxy-url", " ", "providers"], ["handle-redirect"]
            ] {
                let result = run(arguments)
                #expect(result.status == 2, "\(arguments)")
                #expect(result.last["error"] as? String == "usage", "\(arguments)")
            }
            #expect(run(["--help"]).stdout.contains("handle-redirect -"))
        }

        @Test func anUnknownConfigIdIsUnauthorized() {
            let result = cli.run(["providers"], environment: ["TURNKEY_AUTH_PROXY_CONFIG_ID": "no-such-config"])
            #expect(result.status == 4)
            #expect(result.last["error"] as? String == "unauthorized")
        }
    }
}
