import AuthTestSupport
import Foundation
import Testing

/// The process itself: start-up line, shutdown, command line, config files, and bad HTTP input.
@Suite("Emulator process and bad input")
final class ServerTests: EmulatorSuite {
    @Test func printsItsPortAndAnswersThere() async throws {
        #expect(emulator.port > 0)
        let methods = try await client.get("/api/v3/auth/methods")
        #expect(methods.status == 200)
        #expect(methods.data?["allowedAuthMethods"] as? [String] == ["EMAIL_MAGIC_LINK", "GOOGLE", "APPLE"])
        #expect(methods.data?["autoCreateWallet"] as? Bool == true)
    }

    @Test func stopsCleanlyOnSigtermAndFreesThePort() async throws {
        let child = try ChildEmulator()
        let client = EmulatorClient(baseURL: child.baseURL)
        #expect(try await client.get("/api/v3/auth/methods").status == 200)
        #expect(child.stop() == 0)
        await #expect(throws: EmulatorClient.TransportFailure.self) {
            _ = try await client.get("/api/v3/auth/methods", timeout: 2)
        }
    }

    @Test func stopsCleanlyOnSigintHavingPrintedOnlyItsStartUpLines() async throws {
        let child = try ChildEmulator()
        let client = EmulatorClient(baseURL: child.baseURL)
        let lines = child.startUpLines
        #expect(lines.count == 3)
        #expect(lines.first == "listening on \(child.baseURL.absoluteString)")
        #expect(lines.dropFirst().first?.hasPrefix("dashboard: \(child.baseURL.absoluteString)/dashboard/pad_") == true)
        #expect(lines.last?.hasPrefix("admin token file: /") == true)
        let (status, laterStdout) = child.interrupt()
        #expect(status == 0)
        #expect(laterStdout == "")
        await #expect(throws: EmulatorClient.TransportFailure.self) {
            _ = try await client.get("/api/v3/auth/methods", timeout: 2)
        }
    }

    @Test func stopsByItselfWhenTheProcessThatStartedItExits() throws {
        // script/start-emulator passes its caller as --exit-with-pid: here a shell that exits at once.
        let script = EmulatorLauncher.repository.appendingPathComponent("script/start-emulator").path
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "\"$0\" --binary \"$1\"", script, try EmulatorLauncher.executable().path]
        let output = Pipe()
        shell.standardOutput = output
        try shell.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        let firstLine = printed.split(separator: "\n").first ?? ""
        let pid = try #require(firstLine.split(separator: " ").last.flatMap { Int32($0.trimmingCharacters(in: .whitespaces)) })
        let gone = (0..<500).contains { _ in
            usleep(10_000)
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            return stat.isEmpty || stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") == true
        }
        #expect(gone, "the emulator outlived the process that started it")
    }

    @Test func keepsNoneOfTheDescriptorsItsStarterHadOpen() throws {
        // A test process starts the emulator while it runs other children: a pipe to one of those,
        // held by the emulator too, would give its reader no end of file while the emulator runs.
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let launched = try EmulatorLauncher()
        defer { launched.stop() }
        close(ends[1])
        var reader = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        let ready = poll(&reader, 1, 5000)
        #expect(ready == 1 && reader.revents & Int16(POLLHUP) != 0, "the emulator holds the write end of its starter's pipe")
    }

    @Test(.enabled(if: HostAddresses.nonLoopbackIPv4 != nil, "the machine has no address besides loopback"))
    func isNotReachableOnTheMachinesOtherAddresses() async throws {
        let address = try #require(HostAddresses.nonLoopbackIPv4)
        // Positive control: something listening on that address is reachable from here, so a
        // failure below is the emulator not listening there, not the address being unusable.
        let listener = try CannedHTTPServer(status: "204 No Content", body: "", address: address)
        defer { listener.stop() }
        let reachable = try await EmulatorClient(baseURL: listener.baseURL).get("/", timeout: 5)
        #expect(reachable.status == 204)

        let outside = EmulatorClient(baseURL: URL(string: "http://\(address):\(emulator.port)")!)
        await #expect(throws: EmulatorClient.TransportFailure.self) {
            _ = try await outside.get("/api/v3/auth/methods", timeout: 2)
        }
        #expect(try await client.get("/api/v3/auth/methods").status == 200)
    }

    @Test func refusesAMissingOrUnknownEnvironmentHeader() async throws {
        let missing = try await client.get("/api/v3/auth/methods", environment: .some(nil))
        #expect(missing.status == 401)
        #expect(missing.error?.contains("x-portal-auth-environment-id") == true)
        let unknown = try await client.get("/api/v3/auth/methods", environment: "no-such-env")
        #expect(unknown.status == 401)
        let clients = try await client.get("/api/v3/clients/me", environment: .some(nil))
        #expect(clients.status == 401)
    }

    @Test func unknownPathsAre404AndWrongMethods405WithJSONErrors() async throws {
        let unknown = try await client.get("/api/v3/nope")
        #expect(unknown.status == 404)
        #expect(unknown.error?.isEmpty == false)
        let wrongMethod = try await client.send("DELETE", "/api/v3/auth/oauth/tokens")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "POST")
        #expect(wrongMethod.error?.isEmpty == false)
        let getTokens = try await client.get("/api/v3/auth/oauth/tokens")
        #expect(getTokens.status == 405)
    }

    @Test func malformedBodiesAre400AndTheServerKeepsGoing() async throws {
        for body in ["{not json", "[1,2]", "", "\"text\"", "{\"token\": 42}"] {
            let result = try await client.send(
                "POST", "/api/v3/auth/oauth/tokens", body: Data(body.utf8),
                contentType: "application/json")
            #expect(result.status == 400, "body \(body)")
            #expect(result.error?.isEmpty == false)
        }
        let binary = try await client.send(
            "POST", "/api/v3/auth/magic-links", body: Data([0xff, 0xfe, 0x00, 0x80]),
            contentType: "application/json")
        #expect(binary.status == 400)
        #expect(try await client.get("/api/v3/auth/methods").status == 200)
    }

    @Test func oversizeBodiesAre413() async throws {
        let big = Data(repeating: UInt8(ascii: "a"), count: 64 * 1024 + 1)
        let result = try await client.send("POST", "/api/v3/auth/oauth/tokens", body: big, contentType: "application/json")
        #expect(result.status == 413)
        #expect(result.error?.contains("64 KiB") == true)
        let justFits = try await client.send(
            "POST", "/api/v3/auth/oauth/tokens",
            body: Data(("{\"token\":\"" + String(repeating: "b", count: 60_000) + "\"}").utf8),
            contentType: "application/json")
        #expect(justFits.status == 401)
        #expect(try await client.get("/api/v3/auth/methods").status == 200)
    }
}

@Suite("Request log")
struct RequestLogTests {
    @Test func aParentThatNeverReadsStderrCannotStallTheEmulator() async throws {
        let emulator = try ChildEmulator(drainStderr: false)
        defer { emulator.stop() }
        let client = EmulatorClient(baseURL: emulator.baseURL, timeout: 5)
        let longPath = "/" + String(repeating: "x", count: 4000)
        // About 100 KiB of log lines, more than a pipe holds.
        for _ in 0..<25 { #expect(try await client.get(longPath).status == 404) }
        #expect(try await client.get("/api/v3/auth/methods").status == 200)
    }
}

@Suite("Command line and config files")
struct CommandLineTests {
    @Test func helpDocumentsOptionsAndConfigFormat() throws {
        let run = try EmulatorProcess.runToExit(["--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("--port"))
        #expect(run.stdout.contains("--config"))
        #expect(run.stdout.contains("\"redirectUrls\""))
    }

    @Test func unknownArgumentsAndBadPortsExitWithUsageError() throws {
        let unknown = try EmulatorProcess.runToExit(["--frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("--frobnicate"))
        let badPort = try EmulatorProcess.runToExit(["--port", "70000"])
        #expect(badPort.status == 2)
        #expect(badPort.stderr.contains("--port"))
    }

    @Test(arguments: [
        ("not json at all", "not a JSON object"),
        (#"{"environments": []}"#, "environments: must not be empty"),
        (#"{"environments": [{"id": "x", "authMethods": ["GOOGLE"]}]}"#, "environments[0].redirectUrls"),
        (
            #"{"environments": [{"id": "x", "authMethods": ["GOOGLE", "FACEBOOK"], "redirectUrls": ["a://b"]}]}"#,
            "environments[0].authMethods[1]"
        ),
        (#"{"environments": [{"id": "bad id", "authMethods": [], "redirectUrls": ["a://b"]}]}"#, "environments[0].id"),
        (
            #"{"environments": [{"id": "x", "authMethods": [], "redirectUrls": ["a://b"], "users": [{"email": "nobody"}]}]}"#,
            "environments[0].users[0].email"
        ),
        (
            #"{"environments": [{"id": "x", "authMethods": [], "redirectUrls": ["a://b"], "users": [{"email": "a@b.c", "needsTotp": "yes"}]}]}"#,
            "environments[0].users[0].needsTotp"
        ),
        (
            #"{"environments": [{"id": "x", "authMethods": [], "redirectUrls": ["a://b"]}, {"id": "x", "authMethods": [], "redirectUrls": ["a://b"]}]}"#,
            "environments[1].id"
        )
    ])
    func badConfigNamesTheFieldAndExitsNonZero(config: String, expectedMessage: String) throws {
        let run = try withConfigFile(config) { try EmulatorProcess.runToExit(["--port", "0", "--config", $0]) }
        #expect(run.status == 1)
        #expect(run.stderr.contains(expectedMessage))
        #expect(!run.stdout.contains("listening on"))
    }

    @Test func missingConfigFileIsAClearError() throws {
        let run = try EmulatorProcess.runToExit(["--port", "0", "--config", "/nonexistent/emulator.json"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("cannot read config file /nonexistent/emulator.json"))
    }

    @Test func aBusyPortIsAClearError() throws {
        let first = try EmulatorProcess()
        defer { first.stop() }
        let run = try EmulatorProcess.runToExit(["--port", String(first.port)])
        #expect(run.status == 1)
        #expect(run.stderr.contains("cannot listen on 127.0.0.1:\(first.port)"))
    }

    @Test func theShippedExampleConfigIsTheBuiltInEnvironment() async throws {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let example = packageRoot.appendingPathComponent("data/emulator/local-dev.json").path
        let emulator = try EmulatorProcess(arguments: ["--config", example])
        defer { emulator.stop() }
        let state = try await EmulatorClient(baseURL: emulator.baseURL, adminToken: emulator.adminToken).state()
        let users = (state["users"] as? [[String: Any]] ?? []).compactMap { $0["email"] as? String }
        #expect(users == ["alice@example.com", "totp@example.com"])
        let builtIn = try EmulatorProcess()
        defer { builtIn.stop() }
        let builtInState = try await EmulatorClient(baseURL: builtIn.baseURL, adminToken: builtIn.adminToken).state()
        // Each side read first: two missing values would compare equal.
        let shipped = try #require((state["environments"] as? [[String: Any]])?.first, "the example config has no environment")
        let original = try #require((builtInState["environments"] as? [[String: Any]])?.first, "the built-in config has no environment")
        let exampleRedirects = try #require(shipped["redirectUrls"] as? [String])
        #expect(!exampleRedirects.isEmpty)
        #expect(exampleRedirects == original["redirectUrls"] as? [String])
        let exampleMethods = try #require(shipped["authMethods"] as? [String])
        #expect(exampleMethods == original["authMethods"] as? [String])
        let exampleAbstraction = try #require(shipped["accountAbstraction"] as? Bool)
        #expect(exampleAbstraction == original["accountAbstraction"] as? Bool)
    }

    @Test func aConfiguredEnvironmentAnswersWithItsOwnMethods() async throws {
        let config =
            #"{"environments": [{"id": "google-only", "authMethods": ["GOOGLE"], "redirectUrls": ["myapp://cb"], "autoCreateWallet": false}]}"#
        let emulator = try withConfigFile(config) { try EmulatorProcess(arguments: ["--config", $0]) }
        defer { emulator.stop() }
        let client = EmulatorClient(baseURL: emulator.baseURL, environmentId: "google-only", adminToken: emulator.adminToken)
        let methods = try await client.get("/api/v3/auth/methods")
        #expect(methods.data?["allowedAuthMethods"] as? [String] == ["GOOGLE"])
        #expect(methods.data?["autoCreateWallet"] as? Bool == false)
        let urls = try await client.get("/api/v3/auth/oauth/urls?redirectUrl=myapp%3A%2F%2Fcb")
        #expect(urls.status == 200)
        #expect(urls.data?["google"] != nil)
        #expect(urls.data?["apple"] == nil)
        #expect(try await client.get("/api/v3/auth/methods", environment: "local-dev").status == 401)
    }
}
