import AuthTestSupport
import Foundation
import Testing

extension GNOMEIntegration {
    /// `portal-auth sign-in` with a loopback redirect URL (RFC 8252 §7.3), end to end: the emulator
    /// allow-lists `http://127.0.0.1:PORT/auth/callback`, the fake browser GETs it as a browser does,
    /// and another local user (nobody, through setpriv) tries to take the port.
    @Suite(.serialized) struct CLILoopbackRedirectTests {
        let emulator: Emulator
        let cli: CLI
        let port: UInt16
        let redirectUrl: String
        let browser = FakeBrowser()

        init() async throws {
            GLibLoopThread.ensureRunning()
            emulator = try #require(Emulator.shared, "the emulator must start (swift build first)")
            try await emulator.reset()
            port = freeLoopbackPort()
            redirectUrl = "http://127.0.0.1:\(port)/auth/callback"
            try await emulator.changeEnvironment(["redirectUrls": ["io.github.portalauth.signin://auth/callback", redirectUrl]])
            var cli = CLI(apiHost: emulator.apiHost)
            cli.environment["PORTAL_REDIRECT_URL"] = redirectUrl
            self.cli = cli
            try #require(cli.run(["sign-out"]).status == 0)
        }

        func startSignIn(_ provider: String = "google") async throws -> (BackgroundCLI, authorizeUrl: String) {
            let signIn = try BackgroundCLI(cli, ["sign-in", provider])
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
            // The one request was taken: the port is closed, a second request is refused.
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
