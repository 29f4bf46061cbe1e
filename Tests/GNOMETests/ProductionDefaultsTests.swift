import AuthTestSupport
import Foundation
import PortalAuthGNOME
import Testing

extension GNOMEIntegration {
    /// An install nobody configured: the CLI says what to set and opens no connection, not even to the
    /// emulator's well-known port, which any other user of the computer can take first. The emulator
    /// is used only when chosen, for both backends.
    @Suite(.serialized) struct ProductionDefaultsTests {
        /// Every configuration variable the CLI reads, removed, so the run is as unconfigured as a new install.
        static func unconfiguredEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
            ProcessInfo.processInfo.environment
                .filter { !$0.key.hasPrefix("PORTAL_") && !$0.key.hasPrefix("TURNKEY_") }
                .merging(["PORTAL_HTTP_TIMEOUT_SECONDS": "5"].merging(extra) { $1 }) { $1 }
        }

        static func portalAuth(
            _ arguments: [String], environment: [String: String] = unconfiguredEnvironment(),
            input: String? = nil
        ) -> CLI.Run {
            let result = Subprocess.run(Binaries.portalAuth, arguments, environment: environment, input: input)
            let run = CLI.Run(status: result.status, stdout: result.stdout, stderr: result.stderr)
            TestLogs.record(run, command: arguments.prefix(2).joined(separator: " "))
            return run
        }

        @Test func anUnconfiguredCLISendsNothingToWhoeverHoldsTheEmulatorsPort() throws {
            let squatter = try PortSquatter(port: 8790)
            defer { squatter.stop() }
            for arguments in [
                ["methods"], ["login-url", "google"], ["session"], ["client"], ["sign-out"],
                ["turnkey", "providers"], ["turnkey", "login-url", "google"], ["turnkey", "whoami"],
                ["turnkey", "sessions"]
            ] {
                let result = Self.portalAuth(arguments)
                #expect(result.status == 2, "\(arguments): \(result.stderr)")
                #expect(result.last["error"] as? String == "notSetUp", "\(arguments)")
                let message = result.last["message"] as? String ?? ""
                let variable = arguments.first == "turnkey" ? "TURNKEY_AUTH_PROXY_CONFIG_ID" : "PORTAL_AUTH_ENVIRONMENT_ID"
                #expect(message.contains(variable) && message.contains("--emulator"), "\(arguments) does not say what to set")
            }
            #expect(try squatter.othersConnections() == 0, "an unconfigured CLI connected to 127.0.0.1:8790")
        }

        @Test func theEmulatorFlagAndVariableSelectItForBothBackends() async throws {
            let emulator = try #require(AdministeredEmulator.shared)
            try await emulator.reset()
            for (arguments, extra) in [
                (["--emulator=\(emulator.apiHost)", "methods"], [:]),
                (["methods"], ["PORTAL_AUTH_EMULATOR_HOST": emulator.apiHost]),
                (["turnkey", "--emulator=\(emulator.apiHost)", "providers"], [:]),
                (["turnkey", "providers"], ["PORTAL_AUTH_EMULATOR_HOST": emulator.apiHost])
            ] as [([String], [String: String])] {
                let result = Self.portalAuth(arguments, environment: Self.unconfiguredEnvironment(extra))
                #expect(result.status == 0, "\(arguments) \(extra): \(result.stderr)")
            }
            let logged = try await emulator.requests()
            #expect(logged.filter { $0.path == "/api/v3/auth/methods" }.count == 2)
            #expect(logged.filter { $0.path == "/turnkey/auth-proxy/v1/wallet_kit_config" }.count == 2)
        }

        @Test func theEmulatorFlagAloneMeansTheDefaultPort() throws {
            let squatter = try PortSquatter(port: 8790)
            defer { squatter.stop() }
            // The squatter stands in for an emulator at the default address: the flag goes there.
            let result = Self.portalAuth(["--emulator", "methods"])
            #expect(result.status != 0)
            #expect(try squatter.othersConnections() >= 1, "--emulator did not go to 127.0.0.1:8790")
        }

        @Test func aTurnkeyAuthProxyOnLoopbackAloneSendsTheStampedRequestsToTurnkeysAPI() async throws {
            let emulator = try #require(AdministeredEmulator.shared)
            try await emulator.reset()
            TurnkeyKeyring.clear()
            defer { TurnkeyKeyring.clear() }
            let chosen = TurnkeyCommandLine(baseURL: emulator.baseURL)
            let login = chosen.run(["login-url", "discord"])
            try #require(login.status == 0, "\(login.stderr)")
            let redirect = try await ProviderPageBrowser().signIn(
                authorizeUrl: try #require(login.last["authorizeUrl"] as? String),
                choices: ["email": "alice@example.com"], action: "continue")
            try #require(chosen.run(["handle-redirect", "-"], input: redirect + "\n").status == 0)
            let before = try await emulator.requests().filter { $0.path.hasPrefix("/turnkey/api") }.count

            // The same session, configured as a person might: the Auth Proxy (here the emulator's) and
            // the config ID, no API URL, no emulator chosen.
            let onlyAuthProxy = Self.unconfiguredEnvironment([
                "TURNKEY_AUTH_PROXY_URL": emulator.baseURL.absoluteString + "/turnkey/auth-proxy",
                "TURNKEY_AUTH_PROXY_CONFIG_ID": "local-dev"
            ])
            for command in ["whoami", "refresh"] {
                let result = Self.portalAuth(["turnkey", command], environment: onlyAuthProxy)
                #expect(result.status == 7, "\(command) did not go to api.turnkey.com: \(result.status) \(result.stderr)")
                #expect((result.last["message"] as? String ?? "").contains("api.turnkey.com"), "\(command)")
            }
            let after = try await emulator.requests().filter { $0.path.hasPrefix("/turnkey/api") }.count
            #expect(after == before, "a stamped request went to the loopback API")
            #expect(TurnkeyKeyring.session("default") != nil, "the session is still the one signed in")
        }

        // MARK: secrets on the command line

        @Test func aSecretGivenAsAnArgumentIsRefusedUnreadAndNotRepeated() throws {
            let squatter = try PortSquatter(port: 8790)
            defer { squatter.stop() }
            let grant = "pg_" + String(repeating: "Z9", count: 16)
            let redirect = "io.github.portalauth.signin://auth/callback?token=\(grant)&login_type=GOOGLE"
            let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJlbmRVc2VySWQiOiJldV9hcmd2In0.c2lnbmF0dXJlc2lnbmF0dXJl"
            let oidc = "eyJhbGciOiJSUzI1NiJ9.eyJub25jZSI6ImFyZ3YifQ.b2lkY3NpZ25hdHVyZXNpZ25hdHVyZQ"
            let turnkeyRedirect = "io.github.portalauth.signin://?id_token=\(oidc)&state=argv"
            let emulated = Self.unconfiguredEnvironment(["PORTAL_AUTH_EMULATOR_HOST": "127.0.0.1:8790"])
            for (arguments, secret, stdinForm) in [
                (["handle-redirect", redirect], grant, "handle-redirect -"),
                (["handle-redirect", "-", redirect], grant, "handle-redirect -"),
                (["verify-totp", "123456", "--user-jwt", jwt], jwt, "--user-jwt -"),
                (["verify-totp", "123456", "--user-jwt=\(jwt)"], jwt, "--user-jwt -"),
                (["turnkey", "handle-redirect", turnkeyRedirect], oidc, "turnkey handle-redirect -"),
                (["turnkey", "handle-redirect", turnkeyRedirect, "--oidc-only"], oidc, "turnkey handle-redirect -"),
                (["turnkey", "complete-oauth", "--oidc-token", oidc, "--public-key", "02ab"], oidc, "--oidc-token -"),
                (["turnkey", "complete-oauth", "--oidc-token=\(oidc)", "--public-key", "02ab"], oidc, "--oidc-token -")
            ] {
                // Configured (the emulator chosen) and not: the refusal comes first either way.
                for environment in [emulated, Self.unconfiguredEnvironment()] {
                    let result = Self.portalAuth(arguments, environment: environment)
                    #expect(result.status == 2, "\(stdinForm): \(result.status)")
                    #expect(result.last["error"] as? String == "usage", "\(stdinForm)")
                    #expect((result.last["message"] as? String ?? "").contains(stdinForm), "\(stdinForm) is not named")
                    #expect(!(result.stdout + result.stderr).contains(secret), "the refused value was repeated")
                }
            }
            #expect(try squatter.othersConnections() == 0, "a refused command connected")
        }

        @Test func eachBackendsHelpListsTheSettingsItReadsFromTheSettingsTable() {
            for (arguments, backend, other) in [([], Setting.Serves.portal, Setting.Serves.turnkey), (["turnkey"], .turnkey, .portal)] {
                let help = Self.portalAuth(arguments + ["--help"]).stdout
                for setting in Setting.readByCLI(serving: backend) {
                    for name in [setting.flagUsage, setting.variable, setting.defaultValue.nonBlank].compactMap({ $0 }) + setting.aliases {
                        #expect(help.contains(name), "\(arguments) --help does not name \(name)")
                    }
                    #expect(help.contains(setting.summary.split(separator: " ").prefix(4).joined(separator: " ")))
                }
                for variable in Setting.all.filter({ $0.serves == other }).compactMap(\.variable) {
                    #expect(!help.contains(variable), "\(arguments) --help names the other backend's \(variable)")
                }
            }
        }

        @Test func helpShowsOnlyTheStdinForms() {
            let portal = Self.portalAuth(["--help"]).stdout
            let turnkey = Self.portalAuth(["turnkey", "--help"]).stdout
            #expect(portal.contains("handle-redirect -") && portal.contains("--user-jwt -"))
            #expect(turnkey.contains("handle-redirect -") && turnkey.contains("--oidc-token -"))
            for help in [portal, turnkey] {
                #expect(!help.contains("handle-redirect URL"))
                #expect(!help.contains("may also be given as an"))
                #expect(!help.contains("--user-jwt JWT") && !help.contains("--oidc-token TOKEN"))
                #expect(!help.contains("default 127.0.0.1:8790, the local emulator"))
                #expect(!help.contains("(default local-dev)"))
            }
        }
    }
}

/// Another user of the computer (uid 65534) listening on a loopback port: it counts the connections
/// it accepts and answers none.
final class PortSquatter {
    private let process = Process()
    private let output = Pipe()
    /// Connections of others, and whether our probe arrived (all accepted before it are counted by then).
    private let counted = Box((others: 0, probed: false, partial: ""))
    let port: Int

    init(port: Int) throws {
        self.port = port
        let script = """
            import socket, sys
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(("127.0.0.1", \(port)))
            except OSError as error:
                print("taken", error, flush=True); sys.exit(1)
            s.listen(64)
            print("listening", flush=True)
            while True:
                c, _ = s.accept()
                c.settimeout(2)
                try:
                    first = c.recv(5)
                except OSError:
                    first = b""
                print("probe" if first == b"probe" else "connection", flush=True)
                c.close()
            """
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script]
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try ChildSignals.launchUnblocked(process)
        let reader = output.fileHandleForReading
        var first = ""
        while !first.hasSuffix("\n") {
            let byte = reader.readData(ofLength: 1)
            guard !byte.isEmpty else { break }
            first += String(decoding: byte, as: UTF8.self)
        }
        guard first == "listening\n" else {
            process.terminate()
            throw Failure(description: "uid 65534 could not listen on 127.0.0.1:\(port): \(first)")
        }
        let counted = self.counted
        reader.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            counted.withLock { state in
                var lines = (state.partial + text).components(separatedBy: "\n")
                state.partial = lines.removeLast()
                state.others += lines.filter { $0 == "connection" }.count
                if lines.contains("probe") { state.probed = true }
            }
        }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// The connections others made so far. Our own probe goes last: the squatter takes connections
    /// in order, so once it reports the probe every earlier connection is counted.
    func othersConnections() throws -> Int {
        let probe = "import socket; c = socket.create_connection(('127.0.0.1', \(port))); c.sendall(b'probe'); c.recv(1); c.close()"
        let result = Subprocess.run("/usr/bin/python3", ["-c", probe])
        guard result.status == 0 else { throw Failure(description: "could not reach the squatter: \(result.stderr)") }
        let deadline = Date().addingTimeInterval(10)
        while !counted.withLock({ $0.probed }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        guard counted.withLock({ $0.probed }) else { throw Failure(description: "the squatter did not report the probe") }
        return counted.withLock { $0.others }
    }

    func stop() {
        output.fileHandleForReading.readabilityHandler = nil
        process.terminate()
        process.waitUntilExit()
    }
}
