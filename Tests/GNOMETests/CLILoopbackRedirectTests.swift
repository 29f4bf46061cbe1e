import AuthTestSupport
import Foundation
import Testing

extension GNOMEIntegration {
    /// `portal-auth sign-in` with a loopback redirect URL (RFC 8252 §7.3), end to end: the emulator
    /// allow-lists `http://127.0.0.1:PORT/auth/callback`, the fake browser GETs it as a browser does,
    /// and another local user (nobody, through setpriv) tries to take the port.
    @Suite(.serialized) struct CLILoopbackRedirectTests {
        let emulator: AdministeredEmulator
        let cli: CLI
        let port: UInt16
        let redirectUrl: String
        let browser = ProviderPageBrowser()

        init() async throws {
            GLibLoopThread.ensureRunning()
            emulator = try #require(AdministeredEmulator.shared, "the emulator must start (swift build first)")
            try await emulator.reset()
            port = freeLoopbackPort()
            redirectUrl = "http://127.0.0.1:\(port)/auth/callback"
            try await emulator.changeEnvironment(["redirectUrls": ["io.github.portalauth.signin://auth/callback", redirectUrl]])
            var cli = CLI(apiHost: emulator.apiHost)
            cli.environment["PORTAL_REDIRECT_URL"] = redirectUrl
            self.cli = cli
            try #require(cli.run(["sign-out"]).status == 0)
        }

        /// `portal-auth sign-in` running in the background (with `using`'s settings, under `fileLimit`),
        /// once it has printed its authorize URL.
        func startSignIn(
            _ provider: String = "google", using: CLI? = nil, fileLimit: Int? = nil
        ) async throws -> (BackgroundCLI, authorizeUrl: String) {
            let signIn = try BackgroundCLI(using ?? cli, ["sign-in", provider], fileLimit: fileLimit)
            let first = await signIn.waitForLines(1).first
            let authorizeUrl = try #require(first?["authorizeUrl"] as? String, "sign-in printed no authorizeUrl line")
            return (signIn, authorizeUrl)
        }

        func expectRefused(sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(throws: RawHTTP.Failure.self, "something still listens on 127.0.0.1:\(port)", sourceLocation: sourceLocation) {
                try RawHTTP.exchange(port: Int(port), request: Data("GET /auth/callback HTTP/1.1\r\nHost: x\r\n\r\n".utf8), timeout: 5)
            }
        }

        @Test func signInThroughTheLoopbackRedirectEndToEnd() async throws {
            let (signIn, authorizeUrl) = try await startSignIn()
            let page = try await browser.signInThroughLoopback(
                authorizeUrl: authorizeUrl, choices: ["email": "alice@example.com"],
                loopback: redirectUrl)
            #expect(page.status == 200)
            #expect(page.body.contains("You can close this tab"))
            #expect(!page.body.contains("<script") && !page.body.contains("src="), "the page loads something")
            let run = await signIn.finish()
            SecretShapes.expectNone(in: run)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.last["result"] as? String == "authenticated")
            #expect(try await emulator.requests("POST", "/api/v3/auth/oauth/tokens").map(\.status) == [200])
            let stored = try #require(SecretTool.lookup(authEnvironmentId: "local-dev", sessionKey: "default"))
            #expect(stored.contains(#""endUserId":"\#(run.last["endUserId"] as? String ?? "?")""#))
            // The one request was taken and the CLI has exited: nothing holds the port any more.
            expectRefused()
        }

        @Test func aTotpUserGetsTheTotpLineAsHandleRedirectPrintsIt() async throws {
            let (signIn, authorizeUrl) = try await startSignIn("apple")
            _ = try await browser.signInThroughLoopback(
                authorizeUrl: authorizeUrl, choices: ["email": "totp@example.com"],
                loopback: redirectUrl)
            let run = await signIn.finish()
            #expect(run.status == 0)
            #expect(run.last["result"] as? String == "totpRequired")
            #expect((run.last["userJwt"] as? String)?.isEmpty == false)
            #expect(SecretTool.lookup(authEnvironmentId: "local-dev", sessionKey: "default") == nil)
        }

        @Test func otherPathsAndAPathWithoutAResultDoNotConsumeTheListener() async throws {
            let (signIn, authorizeUrl) = try await startSignIn()
            func get(_ target: String) throws -> Int? {
                try RawHTTP.exchange(port: Int(port), request: Data("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8), timeout: 10)
                    .status
            }
            #expect(try get("/favicon.ico") == 404)
            #expect(try get("/auth/callback/more?token=pg_x&login_type=GOOGLE") == 404)
            #expect(try get("/auth/callback") == 400)
            #expect(try get("/auth/callback?token=pg_0000000000000000&login_type=APPLE") == 400) // not this sign-in's provider
            #expect(signIn.lines.count == 1, "the sign-in ended on a request that was not its redirect")
            // Still listening: the real redirect completes the sign-in.
            let page = try await browser.signInThroughLoopback(
                authorizeUrl: authorizeUrl, choices: ["email": "alice@example.com"],
                loopback: redirectUrl)
            #expect(page.status == 200)
            let run = await signIn.finish()
            #expect(run.last["result"] as? String == "authenticated")
            #expect(try await emulator.requests("POST", "/api/v3/auth/oauth/tokens").count == 1)
        }

        @Test(arguments: OtherUser.Sharing.allCases)
        func aPortAnotherUserHoldsIsRefusedWithNothingSentOrOpened(sharing: OtherUser.Sharing) async throws {
            let holder = try OtherUser.PortHolder(host: "127.0.0.1", port: port, sharing: sharing)
            defer { holder.release() }
            let run = cli.run(["sign-in", "google", "--open"])
            #expect(run.status == 10)
            #expect(run.last["error"] as? String == "loopbackPortInUse")
            #expect((run.last["message"] as? String)?.contains("port \(port)") == true)
            #expect(!run.stdout.contains("authorizeUrl"), "an authorize URL was handed out")
            #expect(try await emulator.requests("GET", "/api/v3/auth/oauth/urls").isEmpty, "Portal was asked for an authorize URL")
        }

        @Test func aPortAnotherUserHoldsOnEveryAddressIsRefusedToo() async throws {
            let holder = try OtherUser.PortHolder(host: "0.0.0.0", port: port, sharing: .both)
            defer { holder.release() }
            let run = cli.run(["sign-in", "google"])
            #expect(run.status == 10)
            #expect(run.last["error"] as? String == "loopbackPortInUse")
            #expect(try await emulator.requests("GET", "/api/v3/auth/oauth/urls").isEmpty)
        }

        @Test func anotherUserCannotBindThePortWhileTheSignInListens() async throws {
            let (signIn, authorizeUrl) = try await startSignIn()
            for sharing in OtherUser.Sharing.allCases {
                for host in ["127.0.0.1", "0.0.0.0"] {
                    let attempt = OtherUser.tryToBind(host: host, port: port, sharing: sharing)
                    #expect(attempt == "refused 98", "the other user, with \(sharing) on \(host): \(attempt)")
                }
            }
            let page = try await browser.signInThroughLoopback(
                authorizeUrl: authorizeUrl, choices: ["email": "alice@example.com"],
                loopback: redirectUrl)
            #expect(page.status == 200)
            #expect(await signIn.finish().last["result"] as? String == "authenticated")
        }

        /// Ctrl+C or SIGTERM cancels the sign-in, but the provider's tab can still finish: the CLI keeps
        /// the port, so another user's program waiting for it gets nothing, and the late redirect is
        /// answered and never exchanged. A second signal quits at once, saying the port is free.
        @Test(arguments: [SIGINT, SIGTERM])
        func aLateRedirectAfterAnInterruptReachesNoOtherUserAndIsNeverExchanged(signal: Int32) async throws {
            let (signIn, authorizeUrl) = try await startSignIn()
            signIn.send(signal)
            #expect(await eventually(timeout: 10) { signIn.stderrText.contains("stays held") }, "no word that the port is held")
            #expect(signIn.stderrText.contains("port \(port)") || signIn.stderrText.contains("Port \(port)"))
            for sharing in OtherUser.Sharing.allCases {
                let attempt = OtherUser.tryToBind(host: "127.0.0.1", port: port, sharing: sharing)
                #expect(attempt == "refused 98", "another user, with \(sharing), after the interrupt: \(attempt)")
            }
            let page = try await browser.signInThroughLoopback(
                authorizeUrl: authorizeUrl, choices: ["email": "alice@example.com"],
                loopback: redirectUrl)
            #expect(page.status == 410)
            #expect(page.body.contains("Sign-in ended"))
            #expect(try await emulator.requests("POST", "/api/v3/auth/oauth/tokens").isEmpty, "the late grant was exchanged")

            signIn.send(signal)
            let run = await signIn.finish(timeout: 10)
            #expect(run.last["error"] as? String == "closed")
            #expect(run.stderr.contains("is free now"), "\(run.stderr)")
            #expect(SecretTool.lookup(authEnvironmentId: "local-dev", sessionKey: "default") == nil)
            SecretShapes.expectNone(in: run)
        }

        /// The peer is matched by its whole address: another user's program connecting from
        /// 127.0.0.2:P, while this user's browser has a connection open from 127.0.0.1:P, is not this
        /// user, and its forged redirect (which would sign this user in to another account) is refused.
        @Test func aForgedRedirectFromAnotherLoopbackAddressIsRefusedBesideThisUsersConnection() async throws {
            let (signIn, _) = try await startSignIn()
            defer { signIn.stop() }
            let own = try OpenConnection(port: port)
            defer { own.close() }
            let forged = OtherUser.send(
                port: port, request: "GET /auth/callback?token=pg_0000000000000000&login_type=GOOGLE HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                from: "127.0.0.2", sourcePort: own.localPort)
            #expect(forged == "no answer", "the forged redirect from 127.0.0.2:\(own.localPort) got: \(forged)")
            try await Task.sleep(for: .milliseconds(300))
            #expect(signIn.lines.count == 1, "the sign-in ended on the forged redirect")
            #expect(try await emulator.requests("POST", "/api/v3/auth/oauth/tokens").isEmpty, "the forged grant was exchanged")
        }

        /// 2,000 connections from another user that send a byte every two seconds, against a CLI with
        /// a desktop's usual 1,024 descriptors: each is closed unread when accepted, so the real
        /// redirect is still answered and the listener does not spin.
        @Test func slowConnectionsFromAnotherUserNeitherBlockTheRedirectNorSpinTheProcessor() async throws {
            let (signIn, authorizeUrl) = try await startSignIn(fileLimit: 1024)
            let flood = try OtherUser.SlowConnections(port: port, connections: 2000)
            defer { flood.stop() }
            #expect(flood.opened > 1024, "the other user opened only \(flood.opened) connections")

            let before = signIn.cpuSeconds
            try await Task.sleep(for: .seconds(5))
            let used = signIn.cpuSeconds - before
            #expect(used < 0.25, "the listener used \(used) s of CPU in 5 s under the flood")

            let page = try await browser.signInThroughLoopback(
                authorizeUrl: authorizeUrl, choices: ["email": "alice@example.com"],
                loopback: redirectUrl)
            #expect(page.status == 200)
            let run = await signIn.finish()
            #expect(run.last["result"] as? String == "authenticated", "\(run.stderr)")
        }

        /// A process out of descriptors cannot accept: the listener backs off instead of spinning on the
        /// failing accept, and after seconds of it the sign-in ends as interfered with, nothing exchanged.
        @Test func runningOutOfDescriptorsEndsTheSignInAsInterferedWithoutSpinning() async throws {
            let (signIn, _) = try await startSignIn()
            let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(signIn.processID)/fd").count
            // No room for one more descriptor: no connection can be accepted.
            let limit = Subprocess.run("/usr/bin/prlimit", ["--pid", "\(signIn.processID)", "--nofile=\(open):\(open)"], timeout: 10)
            try #require(limit.status == 0, "prlimit: \(limit.stderr)")
            let connections = try (0..<6).map { _ in try OpenConnection(port: port) }
            defer { for connection in connections { connection.close() } }
            // Still waiting, with accept failing: the CPU it uses meanwhile.
            let before = signIn.cpuSeconds
            try await Task.sleep(for: .seconds(3))
            let used = signIn.cpuSeconds - before
            let run = await signIn.finish(timeout: 20)
            #expect(run.last["error"] as? String == "loopbackInterfered", "\(run.stdout) \(run.stderr)")
            #expect(run.status == 10)
            #expect(used < 1.0, "the failing accept used \(used) s of CPU")
            #expect(try await emulator.requests("POST", "/api/v3/auth/oauth/tokens").isEmpty)
        }

        /// `http://127.0.0.1:0/PATH`: any free port (RFC 8252 §7.3), on an environment that allows any
        /// loopback port. The authorize URL names the bound port; the sign-in completes there.
        @Test func anyFreePortSignsInOnThePortTheSystemChose() async throws {
            try await emulator.changeEnvironment([
                "redirectUrls": ["io.github.portalauth.signin://auth/callback", "http://127.0.0.1:0/auth/callback"]
            ])
            var anyPort = cli
            anyPort.environment["PORTAL_REDIRECT_URL"] = "http://127.0.0.1:0/auth/callback"
            anyPort.environment["PORTAL_DEBUG"] = "1"
            let (signIn, authorizeUrl) = try await startSignIn(using: anyPort)
            // The debug log names the port bound.
            let marker = "listening for the redirect on 127.0.0.1:"
            let bound = try #require(
                signIn.stderrText.components(separatedBy: marker).dropFirst().first?.prefix { $0.isNumber }, "no port in the log")
            #expect(bound != "0" && !bound.isEmpty)
            let page = try await browser.signInThroughLoopback(
                authorizeUrl: authorizeUrl, choices: ["email": "alice@example.com"],
                loopback: "http://127.0.0.1:\(bound)/auth/callback")
            #expect(page.status == 200)
            let run = await signIn.finish()
            #expect(run.last["result"] as? String == "authenticated", "\(run.stderr)")
        }

        @Test func aSchemeRedirectUrlIsAUsageErrorForSignIn() async throws {
            var schemeCLI = cli
            schemeCLI.environment["PORTAL_REDIRECT_URL"] = "io.github.portalauth.signin://auth/callback"
            let run = schemeCLI.run(["sign-in", "google"])
            #expect(run.status == 2)
            #expect(run.last["error"] as? String == "usage")
            #expect(try await emulator.requests("GET", "/api/v3/auth/oauth/urls").isEmpty)
        }
    }
}
