import Foundation
import Testing

/// Runs the built `portal-auth` against the emulator, in the test's desktop session. The emulator is
/// chosen explicitly (PORTAL_AUTH_EMULATOR_HOST, so the environment is its local-dev) and
/// PORTAL_API_HOST names the host, which a test may point elsewhere.
struct CLI {
    let apiHost: String
    /// Set for every run (PORTAL_AUTH_HTTP_TIMEOUT_SECONDS, PORTAL_AUTH_CA_FILE, …).
    var environment: [String: String] = [:]

    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
        /// stdout, one JSON object per line.
        var lines: [[String: Any]] {
            stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
        var last: [String: Any] { lines.last ?? [:] }
    }

    func run(
        _ arguments: [String], input: String? = nil, viaDBusSessionWithoutKeyring: Bool = false,
        extraEnvironment: [String: String] = [:]
    ) -> Run {
        var environment = processEnvironment(extraEnvironment)
        let result: ProcessResult
        if viaDBusSessionWithoutKeyring {
            environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
            result = Subprocess.run(
                "/usr/bin/dbus-run-session",
                ["--config-file=\(BareSessionBus.configFile)", "--", Binaries.portalAuth] + arguments,
                environment: environment, input: input)
        } else {
            result = Subprocess.run(Binaries.portalAuth, arguments, environment: environment, input: input)
        }
        let run = Run(status: result.status, stdout: result.stdout, stderr: result.stderr)
        TestLogs.record(run, command: arguments.first ?? "")
        return run
    }

    /// Runs with `input` on stdin, which with `holdOpen` stays open after it (no end of input), so
    /// the CLI must stop reading by itself; a CLI that waits for more is stopped after `timeout`.
    func run(_ arguments: [String], feeding input: Data, holdOpen: Bool, timeout: TimeInterval = 60) -> Run {
        let result = Subprocess.run(
            Binaries.portalAuth, arguments, environment: processEnvironment(), feeding: input, holdOpen: holdOpen, timeout: timeout)
        let run = Run(status: result.status, stdout: result.stdout, stderr: result.stderr)
        TestLogs.record(run, command: arguments.first ?? "")
        return run
    }

    /// The test process's environment without the Portal settings it may carry, then this CLI's.
    func processEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        for key in [
            "PORTAL_AUTH_ENVIRONMENT_ID", "PORTAL_REDIRECT_URL", "PORTAL_SESSION_KEY", "PORTAL_ACCOUNT_ABSTRACTED",
            "PORTAL_MAGIC_LINK_FROM", "PORTAL_MAGIC_LINK_TEMPLATE", "PORTAL_CA_FILE", "PORTAL_HTTP_TIMEOUT_SECONDS",
            "PORTAL_AUTH_CA_FILE", "PORTAL_AUTH_HTTP_TIMEOUT_SECONDS"
        ] {
            environment.removeValue(forKey: key)
        }
        environment["PORTAL_API_HOST"] = apiHost
        environment["PORTAL_AUTH_EMULATOR_HOST"] = apiHost
        environment.merge(self.environment) { $1 }
        return environment
    }
}

/// Every CLI run's output, for `script/check-no-secrets` to scan after the suites: the files in
/// `$PORTAL_TEST_LOG_DIR` (set by script/run-suites). The userJwt of a totpRequired line and the token
/// of an oidcToken line (a later command needs them), and a totpLink (the person enrols with it),
/// are masked first, as `SecretShapes.expectNone` does.
enum TestLogs {
    static let file: FileHandle? = {
        guard let directory = ProcessInfo.processInfo.environment["PORTAL_TEST_LOG_DIR"], !directory.isEmpty else { return nil }
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/cli-\(getpid()).log"
        guard FileManager.default.createFile(atPath: path, contents: nil) else { return nil }
        let handle = FileHandle(forWritingAtPath: path)
        handle?.seekToEndOfFile()
        return handle
    }()
    static let lock = NSLock()

    static func record(_ run: CLI.Run, command: String) {
        guard let file else { return }
        // The command word only: a test may pass a redirect (with its grant) where a command goes.
        let shown =
            command.count <= 40 && command.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "-" || $0 == " ") }
            ? command : "(an argument that is not a command)"
        let text = "$ portal-auth \(shown) -> \(run.status)\n" + SecretShapes.maskingAllowed(run.stdout) + "\n" + run.stderr + "\n"
        lock.lock()
        defer { lock.unlock() }
        file.write(Data(text.utf8))
    }
}

/// Where tests put files: the desktop session's scratch directory (removed when it ends) if there is one.
enum TestScratch {
    static let directory: String = {
        let scratch = ProcessInfo.processInfo.environment["PORTAL_SESSION_SCRATCH"] ?? ""
        return scratch.isEmpty ? NSTemporaryDirectory() : scratch
    }()
}

/// A D-Bus session bus that can start no services, so no Secret Service exists on it.
enum BareSessionBus {
    static let configFile: String = {
        let path = TestScratch.directory + "/portal-bare-session-\(getpid()).conf"
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:tmpdir=\(TestScratch.directory)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        try! config.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }()
}

/// Grants (pg_…), session tokens (pst_…), JWTs (eyJ….eyJ…, base64url or standard, padded or not:
/// user JWTs, OIDC tokens, Turnkey sessions), TOTP secrets (otpauth:// links, 32 base32 characters),
/// the emulator's Discord and X codes (discordc_…, xc_…), PKCE verifiers and private keys must never
/// reach the CLI's output, except a userJwt and totpLink inside a totpRequired line and an oidcToken
/// inside an oidcToken line (a later command or the person needs them). The shapes are
/// script/check-no-secrets' (a prefixed token counts only where a token can start, see there).
enum SecretShapes {
    /// A Swift `Regex`: with the `NSRegularExpression` this used, LeakSanitizer (script/sanitize)
    /// reported Foundation's C storage behind it as leaked, kept in a static or built per check.
    static var pattern: Regex<AnyRegexOutput> {
        try! Regex(
            #"((^|[^A-Za-z0-9_-]|%[0-9A-Fa-f]{2})(pg|pst)_[A-Za-z0-9_-]{16,}|eyJ[A-Za-z0-9_+/-]{8,}={0,2}\.eyJ[A-Za-z0-9_+/-]{8,}|otpauth://|(^|[^A-Za-z0-9])[A-Z2-7]{32}([^A-Za-z0-9=]|$)|[A-Z2-7]{4}( [A-Z2-7]{4}){7}|(^|[^A-Za-z0-9_-]|%[0-9A-Fa-f]{2})(discordc|xc)_[A-Za-z0-9_-]{16,}|(codeVerifier|code_verifier|privateKey|private_key)[^A-Za-z0-9_-]{1,3}[A-Za-z0-9_-]{32,})"#
        )
    }

    static func contains(_ text: String) -> Bool {
        text.contains(pattern)
    }

    /// stdout with what a later command needs masked: the userJwt and totpLink of totpRequired lines
    /// and the oidcToken of oidcToken lines.
    static func maskingAllowed(_ stdout: String) -> String {
        stdout.split(separator: "\n").map { line -> String in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return String(line) }
            var masked = String(line)
            if object["result"] as? String == "totpRequired" {
                if let jwt = object["userJwt"] as? String { masked = masked.replacingOccurrences(of: jwt, with: "<userJwt>") }
                if let link = object["totpLink"] as? String { masked = masked.replacingOccurrences(of: link, with: "<totpLink>") }
            }
            if object["result"] as? String == "oidcToken", let token = object["oidcToken"] as? String {
                masked = masked.replacingOccurrences(of: token, with: "<oidcToken>")
            }
            return masked
        }.joined(separator: "\n")
    }

    /// Checks a run's stdout (minus what a later command needs, see `maskingAllowed`) and stderr.
    static func expectNone(in run: CLI.Run, sourceLocation: SourceLocation = #_sourceLocation) {
        let leaked = contains(maskingAllowed(run.stdout)) || contains(run.stderr)
        #expect(!leaked, "a grant, token, JWT, code, verifier or private key appeared in the CLI's output", sourceLocation: sourceLocation)
    }
}
