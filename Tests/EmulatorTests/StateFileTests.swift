import AuthBase
import AuthTestSupport
import Foundation
import Testing

/// `--state-file`: what a person signed in to is still there after the emulator restarts (the app
/// restores its session from the keyring and asks the emulator about it), and the file keeps the
/// emulator's loopback guarantees: its user's alone, refused when anyone else could read or change it.
@Suite("State file: sessions outlive a restart")
final class StateFileTests {
    let folder: String
    var stateFile: String { folder + "/state/8790.json" }

    init() throws {
        // A folder everyone may enter, so only the emulator's own modes keep another user out.
        var template = Array("/tmp/portal-emulator-state.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw EmulatorLauncher.LaunchFailure(description: "mkdtemp failed") }
        folder = String(cString: made)
        chmod(folder, 0o755)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    private func start(_ arguments: [String]? = nil) throws -> (EmulatorProcess, EmulatorClient) {
        let emulator = try EmulatorProcess(arguments: arguments ?? ["--state-file", stateFile])
        return (emulator, EmulatorClient(baseURL: emulator.baseURL, adminToken: emulator.adminToken))
    }

    @Test func aPortalSessionAndATurnkeySessionAreLiveAfterARestart() async throws {
        let (first, client) = try start()
        let exchanged = try await client.exchange(try await client.googleGrant(email: "alice@example.com"))
        let token = try #require(exchanged.data?["clientSessionToken"] as? String)
        let turnkey = try await client.turnkeyGoogleUser()
        let totpSecret = try await client.totpSecret("totp@example.com")
        first.stop()

        let (second, again) = try start()
        defer { second.stop() }
        #expect(try await again.clientsMe(token).status == 200, "the restored Portal session was refused")
        let whoami = try await again.stamped(
            TurnkeyWire.APIPath.whoami, ["organizationId": turnkey.signIn.organizationId], key: turnkey.key)
        #expect(whoami.status == 200, "the restored Turnkey session was refused")
        #expect(whoami.json?["userId"] as? String == turnkey.signIn.userId)
        #expect(try await again.totpSecret("totp@example.com") == totpSecret, "an authenticator set up once would stop working")
    }

    @Test func withoutAStateFileARestartForgetsTheSession() async throws {
        let (first, client) = try start([])
        let token = try #require(
            try await client.exchange(try await client.googleGrant(email: "alice@example.com")).data?["clientSessionToken"] as? String)
        first.stop()
        let (second, again) = try start([])
        defer { second.stop() }
        #expect(try await again.clientsMe(token).status == 401)
    }

    @Test func resetEmptiesTheStateForTheNextStart() async throws {
        let (first, client) = try start()
        let token = try #require(
            try await client.exchange(try await client.googleGrant(email: "alice@example.com")).data?["clientSessionToken"] as? String)
        try await client.reset()
        first.stop()
        let (second, again) = try start()
        defer { second.stop() }
        #expect(try await again.clientsMe(token).status == 401)
    }

    @Test func theFileHoldsNoSessionTokenAndIsItsOwnersAlone() async throws {
        let (emulator, client) = try start()
        let token = try #require(
            try await client.exchange(try await client.googleGrant(email: "alice@example.com")).data?["clientSessionToken"] as? String)
        emulator.stop()
        let saved = try String(contentsOfFile: stateFile, encoding: .utf8)
        expectQuietly(!saved.contains(token), "the state file holds the session token itself")
        var info = stat()
        #expect(lstat(stateFile, &info) == 0 && info.st_mode & 0o777 == 0o600 && info.st_uid == getuid())
        #expect(lstat(folder + "/state", &info) == 0 && info.st_mode & 0o777 == 0o700)
        // Another account on this computer can neither read the file nor list its folder.
        let seen = try OtherUser.run(
            """
            import json, os, sys
            result = {}
            for name, action in (("file", lambda: open(sys.argv[1]).read()), ("folder", lambda: os.listdir(sys.argv[2]))):
                try:
                    action()
                    result[name] = "read"
                except PermissionError:
                    result[name] = "refused"
            print(json.dumps(result))
            """, [stateFile, folder + "/state"])
        #expect(seen["file"] as? String == "refused")
        #expect(seen["folder"] as? String == "refused")
    }

    @Test func aStateFileOthersCouldChangeIsRefusedAndLeftAsItWas() throws {
        let (emulator, _) = try start()
        emulator.stop()
        chmod(stateFile, 0o666)
        let before = FileManager.default.contents(atPath: stateFile)
        let run = try EmulatorProcess.runToExit(["--port", "0", "--state-file", stateFile])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(stateFile) must be a file only you can read and write (mode 0600)"))
        #expect(FileManager.default.contents(atPath: stateFile) == before)
    }

    @Test func aFileThatIsNotStateIsRefusedAndLeftAsItWas() throws {
        mkdir(folder + "/state", 0o700)
        let text = Data("my notes\n".utf8)
        #expect(FileManager.default.createFile(atPath: stateFile, contents: text, attributes: [.posixPermissions: 0o600]))
        let run = try EmulatorProcess.runToExit(["--port", "0", "--state-file", stateFile])
        #expect(run.status == 1)
        #expect(run.stderr.contains("is not a state file this emulator wrote"))
        #expect(FileManager.default.contents(atPath: stateFile) == text)
    }
}
