import AuthTestSupport
import Foundation
import Testing

/// Loopback is shared by every user of the computer: the administration API answers only whoever holds
/// this run's admin token, which only the emulator's user can read; the dashboard, that or its own key.
@Suite("Admin token: the administration answers only its owner")
final class AdminTokenTests: EmulatorSuite {
    /// Every route of the administration, and two that are not routes (nothing about it answers).
    static var adminRequests: [(method: String, path: String, body: [String: Any]?)] {
        [
            ("GET", "/", nil),
            ("POST", "/emulator/v1/reset", [:]),
            ("GET", "/emulator/v1/state", nil),
            ("GET", "/emulator/v1/turnkey", nil),
            ("GET", "/emulator/v1/outbox", nil),
            ("GET", "/emulator/v1/requests", nil),
            ("GET", "/emulator/v1/clock", nil),
            ("POST", "/emulator/v1/clock", ["advanceSeconds": 7200]),
            ("GET", "/emulator/v1/faults", nil),
            ("POST", "/emulator/v1/faults", ["path": "/api/v3/auth/methods", "kind": "status", "status": 500]),
            ("POST", "/emulator/v1/environments/local-dev", ["authMethods": [String]()]),
            ("GET", "/emulator/v1/users/totp@example.com/totp", nil),
            ("POST", "/emulator/v1/sessions/revoke", [:]),
            ("GET", "/emulator/v1/dashboard", nil),
            ("GET", "/emulator/v1/no-such-thing", nil),
            ("GET", "/emulator/", nil),
            ("GET", "/dashboard/", nil),
            ("GET", "/dashboard/\(randomLookalike(prefix: "pad_"))/", nil)
        ]
    }

    private func send(
        _ client: EmulatorClient, _ request: (method: String, path: String, body: [String: Any]?),
        headers: [String: String] = [:]
    ) async throws -> HTTPResult {
        if let body = request.body { return try await client.post(request.path, json: body, headers: headers) }
        return try await client.send(request.method, request.path, headers: headers)
    }

    static func randomLookalike(prefix: String = "pae_") -> String {
        prefix + String((0..<43).map { _ in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".randomElement()! })
    }

    @Test func withoutTheTokenEveryAdminPathAnswers401WithNothingAndChangesNothing() async throws {
        let session =
            try await client.exchange(try await client.googleGrant(email: "alice@example.com")).data?["clientSessionToken"] as? String ?? ""
        _ = try await client.post(
            "/api/v3/auth/magic-links",
            json: [
                "email": "lena@example.com", "redirectUrl": EmulatorClient.redirectUrl, "fromEmail": "x@y.z", "templateId": "t"
            ])
        let secretBefore = try await client.totpSecret("totp@example.com")

        let stranger = EmulatorClient(baseURL: emulator.baseURL)
        for request in Self.adminRequests {
            let plain = try await send(stranger, request)
            #expect(plain.status == 401, "\(request.method) \(request.path) without a token")
            #expect(plain.body.isEmpty, "\(request.method) \(request.path) said something without a token")
            let guessed = try await send(stranger, request, headers: ["Authorization": "Bearer \(Self.randomLookalike())"])
            #expect(guessed.status == 401, "\(request.method) \(request.path) with a wrong token")
            #expect(guessed.body.isEmpty, "\(request.method) \(request.path) said something to a wrong token")
        }
        let wrongScheme = try await stranger.get("/emulator/v1/state", headers: ["Authorization": "Basic \(emulator.adminToken)"])
        #expect(wrongScheme.status == 401)

        // The owner finds everything as it was: the session, the outbox, the clock, no faults, the
        // environment's methods, the TOTP secret.
        #expect(try await client.clientsMe(session).status == 200)
        #expect(try await client.outbox().count == 1)
        #expect(abs(try await client.now() - Int(Date().timeIntervalSince1970)) < 60)
        #expect(try await client.get("/emulator/v1/faults").dataList?.isEmpty == true)
        #expect(try await client.get("/api/v3/auth/methods").status == 200)
        #expect(try await client.totpSecret("totp@example.com") == secretBefore)
        // And with the token every route answers (the dashboard and the state among them).
        #expect(try await client.get("/").status == 200)
        #expect(try await client.get("/emulator/v1/state").status == 200)
    }

    @Test func theTokenFileIsTheOwnersAloneAndGoesWithTheEmulator() async throws {
        let file = emulator.adminTokenFile.path
        var info = stat()
        #expect(lstat(file, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFREG)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(info.st_uid == getuid())
        var folder = stat()
        #expect(lstat(emulator.adminTokenFile.deletingLastPathComponent().path, &folder) == 0)
        #expect(folder.st_mode & 0o777 == 0o700)
        #expect(emulator.adminTokenFile.lastPathComponent == "\(emulator.port).token")
        let token = emulator.adminToken
        expectQuietly(
            token.hasPrefix("pae_") && token.count == 47
                && token.dropFirst(4).allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" },
            "the token is pae_ and 43 base64url characters")

        emulator.stop()
        #expect(!FileManager.default.fileExists(atPath: file), "the token file outlived the emulator")
    }

    @Test func theTokenAppearsInNoLog() async throws {
        let token = emulator.adminToken
        let stranger = EmulatorClient(baseURL: emulator.baseURL)
        _ = try await stranger.get("/?token=\(token)")
        _ = try await client.get("/")
        _ = try await client.get("/emulator/v1/state")
        _ = try await stranger.get("/emulator/v1/outbox")
        _ = try await stranger.get("/api/v3/clients/\(token)")
        _ = try await stranger.get("/api/v3/auth/methods?token=\(token)")
        _ = try await stranger.get("/dashboard/\(token)/")

        let log = emulator.log()
        #expect(log.contains("GET / 401") && log.contains("GET / 200"), "the visits are logged")
        expectQuietly(!log.contains(token), "the token is not in the request log")
        expectQuietly(!log.contains("token="), "no query in the request log")
        expectQuietly(!log.lowercased().contains("bearer") && !log.lowercased().contains("authorization"), "no header in the request log")
        let listed = try await client.get("/emulator/v1/requests").text + (try await client.get("/").text)
        expectQuietly(!listed.contains(token), "the token is not in the requests the admin API and the dashboard list")
    }

    @Test func helpSaysWhereTheTokenIsAndHowToSendIt() throws {
        let run = try EmulatorProcess.runToExit(["--help"])
        #expect(run.status == 0)
        for text in [
            "--admin-token-file", "$XDG_RUNTIME_DIR/portal-auth-emulator/PORT.token", "PORTAL_AUTH_EMULATOR_ADMIN_TOKEN",
            "Authorization: Bearer TOKEN", "dashboard: http://127.0.0.1:PORT/dashboard/KEY/", "GET  dashboard"
        ] {
            #expect(run.stdout.contains(text), "help mentions \(text)")
        }
    }
}

/// The token a script chose, and where it asked for the file.
@Suite("Admin token: chosen by the script that starts the emulator")
struct ChosenAdminTokenTests {
    @Test func aTokenFromTheEnvironmentIsTheOneThatOpensTheAdministration() async throws {
        let chosen = "scripted-" + UUID().uuidString + UUID().uuidString
        let child = try ChildEmulator(environment: ["PORTAL_AUTH_EMULATOR_ADMIN_TOKEN": chosen])
        defer { child.stop() }
        let file = String(child.startUpLines.last?.dropFirst("admin token file: ".count) ?? "")
        expectQuietly((try? String(contentsOfFile: file, encoding: .utf8)) == chosen + "\n", "the file holds the chosen token")
        let dashboard = child.startUpLines.dropFirst().first ?? ""
        expectQuietly(dashboard.hasPrefix("dashboard: \(child.baseURL.absoluteString)/dashboard/pad_"), "the dashboard URL has its own key")
        expectQuietly(!dashboard.contains(chosen), "the dashboard URL does not carry the admin token")
        let owner = EmulatorClient(baseURL: child.baseURL, adminToken: chosen)
        #expect(try await owner.get("/emulator/v1/state").status == 200)
        let other = EmulatorClient(baseURL: child.baseURL, adminToken: "pae_" + String(repeating: "A", count: 43))
        #expect(try await other.get("/emulator/v1/state").status == 401)
    }

    @Test func aMalformedChosenTokenIsRefusedWithoutRepeatingIt() throws {
        let run = try EmulatorProcess.runToExit(["--port", "0"], environment: ["PORTAL_AUTH_EMULATOR_ADMIN_TOKEN": "short secret"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("PORTAL_AUTH_EMULATOR_ADMIN_TOKEN must be"))
        #expect(!run.stderr.contains("short secret"))
        #expect(run.stdout.isEmpty)
    }
}

/// Another account on the same computer, for real: a process running as `nobody`.
@Suite("Admin token: another local user")
final class OtherUserTests {
    let folder: String
    let tokenFile: String
    let emulator: EmulatorProcess

    init() throws {
        // A folder everyone may enter (/tmp, not a private scratch folder), so that only the
        // file's own mode keeps the other user out.
        var template = Array("/tmp/portal-admin-token.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw EmulatorLauncher.LaunchFailure(description: "mkdtemp failed") }
        folder = String(cString: made)
        chmod(folder, 0o755)
        tokenFile = folder + "/admin.token"
        emulator = try EmulatorProcess(arguments: ["--admin-token-file", tokenFile])
    }

    deinit {
        emulator.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    private static let strangerScript = #"""
        import json, sys, urllib.error, urllib.request
        base, token_file, requests = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
        result = {}
        try:
            with open(token_file) as handle:
                result["tokenFile"] = "read" if handle.read() else "empty"
        except PermissionError:
            result["tokenFile"] = "refused"
        except OSError as error:
            result["tokenFile"] = type(error).__name__
        def call(method, path, body=None, headers=None):
            data = None if body is None else json.dumps(body).encode()
            request = urllib.request.Request(base + path, data=data, method=method, headers=headers or {})
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    return [response.status, len(response.read())]
            except urllib.error.HTTPError as error:
                return [error.code, len(error.read())]
        result["admin"] = {f"{m} {p}": call(m, p, b) for m, p, b in requests}
        result["api"] = call("GET", "/api/v3/auth/methods", headers={"x-portal-auth-environment-id": "local-dev"})
        print(json.dumps(result))
        """#

    @Test func getsNothingFromTheAdministrationAndCannotReadTheToken() async throws {
        let owner = EmulatorClient(baseURL: emulator.baseURL, adminToken: emulator.adminToken)
        _ = try await owner.post(
            "/api/v3/auth/magic-links",
            json: [
                "email": "lena@example.com", "redirectUrl": EmulatorClient.redirectUrl, "fromEmail": "x@y.z", "templateId": "t"
            ])
        var info = stat()
        #expect(stat(tokenFile, &info) == 0 && info.st_mode & 0o777 == 0o600)

        let requests = AdminTokenTests.adminRequests.map { [$0.method, $0.path, $0.body.map { $0 as Any } ?? NSNull()] }
        let encoded = String(decoding: try JSONSerialization.data(withJSONObject: requests), as: UTF8.self)
        let seen = try OtherUser.run(Self.strangerScript, [emulator.baseURL.absoluteString, tokenFile, encoded])

        #expect(seen["tokenFile"] as? String == "refused")
        // Positive control: that user reaches the emulator; the Portal API answers them as Portal would.
        #expect((seen["api"] as? [Int])?.first == 200)
        let admin = seen["admin"] as? [String: [Int]] ?? [:]
        #expect(admin.count == AdminTokenTests.adminRequests.count)
        for (request, answer) in admin {
            #expect(answer == [401, 0], "\(request) answered another user \(answer)")
        }
        // The owner still has the link in the outbox and the environment as it was.
        #expect(try await owner.outbox().count == 1)
        #expect(
            try await owner.get("/api/v3/auth/methods").data?["allowedAuthMethods"] as? [String] == ["EMAIL_MAGIC_LINK", "GOOGLE", "APPLE"])
    }
}

/// Every path answers only a request addressed to a loopback name: a DNS-rebinding page (its own
/// host name resolving to 127.0.0.1) reaches none of them. Raw HTTP, to send any Host at all.
@Suite("Host check on every path")
final class HostCheckTests: EmulatorSuite {
    private func exchange(
        _ method: String, _ target: String, host: String, body: String = "", headers: [String] = []
    ) throws -> RawHTTP.Reply {
        var lines =
            [
                "\(method) \(target) HTTP/1.1", "Host: \(host)", "Authorization: Bearer \(emulator.adminToken)",
                "x-portal-auth-environment-id: local-dev", "Content-Length: \(body.utf8.count)"
            ] + headers
        if !body.isEmpty { lines.append("Content-Type: application/json") }
        return try RawHTTP.exchange(
            port: emulator.port, request: Data((lines.joined(separator: "\r\n") + "\r\n\r\n" + body).utf8), timeout: 10)
    }

    @Test func everyPathRefusesAHostThatIsNotALoopbackName() throws {
        let port = emulator.port
        let authorize = "/idp/google/authorize?client_id=x&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&response_type=id_token"
        let targets: [(String, String)] = [
            ("GET", "/api/v3/auth/methods"), ("GET", "/api/v3/auth/oauth/urls?redirectUrl=x"), ("POST", "/api/v3/auth/oauth/tokens"),
            ("POST", "/turnkey/auth-proxy/v1/wallet_kit_config"), ("POST", "/turnkey/api/public/v1/query/whoami"),
            ("GET", "/turnkey/oauth-origin?provider=google"), ("GET", authorize), ("GET", "/idp/.well-known/jwks.json"),
            ("GET", "/api/v3/auth/oauth/callback/local-dev"), ("GET", "/emulator/v1/state"), ("GET", "/"), ("GET", "/nope")
        ]
        let loopback = ["127.0.0.1", "127.0.0.1:\(port)", "localhost", "localhost:\(port)", "LOCALHOST:\(port)", "[::1]", "[::1]:\(port)"]
        let foreign = [
            "attacker.example", "attacker.example:\(port)", "127.0.0.1.attacker.example:\(port)", "localhost.attacker.example",
            "127.0.0.2:\(port)", "localhost:\(port + 1)", "[::2]:\(port)", "0.0.0.0:\(port)"
        ]
        for (method, target) in targets {
            let body = method == "POST" ? "{}" : ""
            let own = try exchange(method, target, host: "127.0.0.1:\(port)", body: body).status
            #expect(own != nil && own != 403, "\(method) \(target) as addressed by the app")
            for host in loopback {
                #expect(try exchange(method, target, host: host, body: body).status == own, "\(method) \(target) for Host \(host)")
            }
            for host in foreign {
                #expect(try exchange(method, target, host: host, body: body).status == 403, "\(method) \(target) for Host \(host)")
            }
        }
    }

    @Test func aRefusedRequestDoesNothing() async throws {
        let body = #"{"email":"lena@example.com","redirectUrl":"\#(EmulatorClient.redirectUrl)","fromEmail":"x@y.z","templateId":"t"}"#
        let refused = try exchange("POST", "/api/v3/auth/magic-links", host: "attacker.example:\(emulator.port)", body: body)
        #expect(refused.status == 403)
        #expect(try await client.outbox().isEmpty, "a refused request sent a magic link")
        let sent = try exchange("POST", "/api/v3/auth/magic-links", host: "localhost:\(emulator.port)", body: body)
        #expect(sent.status == 200)
        #expect(try await client.outbox().count == 1)
    }
}
