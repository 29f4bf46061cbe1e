import Foundation
import Testing

/// Runs the built `portal-auth turnkey …` against the emulator, in the test's desktop session.
/// The emulator is chosen (PORTAL_AUTH_EMULATOR_HOST): its Auth Proxy, config local-dev, API, origin,
/// Discord and X pages; TURNKEY_AUTH_PROXY_URL names the Auth Proxy as well, as a person would.
struct TurnkeyCommandLine {
    let baseURL: URL

    func run(_ arguments: [String], input: String? = nil, environment extra: [String: String] = [:]) -> CLI.Run {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TURNKEY_") }
        environment["TURNKEY_AUTH_PROXY_URL"] = baseURL.absoluteString + "/turnkey/auth-proxy"
        environment["PORTAL_AUTH_EMULATOR_HOST"] = baseURL.absoluteString
        environment.merge(extra) { $1 }
        let result = Subprocess.run(Binaries.portalAuth, ["turnkey"] + arguments, environment: environment, input: input)
        let run = CLI.Run(status: result.status, stdout: result.stdout, stderr: result.stderr)
        TestLogs.record(run, command: "turnkey " + (arguments.first ?? ""))
        return run
    }
}

/// The Turnkey items in the keyring, read with `secret-tool` the way a person's tools do.
enum TurnkeyKeyring {
    static let sessionSchema = "io.github.portalauth.TurnkeySession"
    static let keySchema = "io.github.portalauth.TurnkeyKey"
    static let pendingSchema = "io.github.portalauth.TurnkeyPending"

    static func session(_ sessionKey: String, config: String = "local-dev") -> String? {
        SecretTool.lookup(["xdg:schema": sessionSchema, "auth-proxy-config-id": config, "session-key": sessionKey])
    }

    static func privateKey(_ publicKey: String) -> String? {
        SecretTool.lookup(["xdg:schema": keySchema, "public-key": publicKey])
    }

    static var keyCount: Int { SecretTool.count(["xdg:schema": keySchema]) }
    static var pendingCount: Int { SecretTool.count(["xdg:schema": pendingSchema]) }
    static var sessionCount: Int { SecretTool.count(["xdg:schema": sessionSchema]) }

    /// The pending record of a sign-in, by its state.
    static func pending(state: String, config: String = "local-dev") -> [String: Any]? {
        SecretTool.lookup(["xdg:schema": pendingSchema, "auth-proxy-config-id": config, "state": state])
            .flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The claims of the stored session JWT (read, not printed).
    static func sessionClaims(_ sessionKey: String) -> [String: Any]? {
        guard let jwt = session(sessionKey) else { return nil }
        let parts = jwt.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    /// Removes every Turnkey item, so each test starts with an empty keyring.
    static func clear() {
        for schema in [sessionSchema, keySchema, pendingSchema] {
            _ = Subprocess.run("/usr/bin/secret-tool", ["clear", "xdg:schema", schema])
        }
    }
}
