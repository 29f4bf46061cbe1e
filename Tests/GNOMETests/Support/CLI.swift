import Foundation
import Testing

/// Runs the built `portal-auth` against the emulator, in the test's desktop session.
struct CLI {
    let apiHost: String

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

    func run(_ arguments: [String], input: String? = nil, viaDBusSessionWithoutKeyring: Bool = false,
             extraEnvironment: [String: String] = [:]) -> Run {
        var environment = ProcessInfo.processInfo.environment.merging(extraEnvironment) { $1 }
        for key in ["PORTAL_AUTH_ENVIRONMENT_ID", "PORTAL_REDIRECT_URL", "PORTAL_SESSION_KEY", "PORTAL_ACCOUNT_ABSTRACTED",
                    "PORTAL_MAGIC_LINK_FROM", "PORTAL_MAGIC_LINK_TEMPLATE"] {
            environment.removeValue(forKey: key)
        }
        environment["PORTAL_API_HOST"] = apiHost
        let result: ProcessResult
        if viaDBusSessionWithoutKeyring {
            environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
            result = Subprocess.run("/usr/bin/dbus-run-session",
                                    ["--config-file=\(BareSessionBus.configFile)", "--", Binaries.portalAuth] + arguments,
                                    environment: environment, input: input)
        } else {
            result = Subprocess.run(Binaries.portalAuth, arguments, environment: environment, input: input)
        }
        return Run(status: result.status, stdout: result.stdout, stderr: result.stderr)
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

/// Grants (pg_…), session tokens (pst_…), JWTs (eyJ….eyJ…: user JWTs, OIDC tokens, Turnkey sessions),
/// the emulator's Discord and X codes (discordc_…, xc_…), PKCE verifiers and private keys must never
/// reach the CLI's output, except a userJwt inside a totpRequired line and an oidcToken inside an
/// oidcToken line (a later command needs them). The shapes are script/check-no-secrets'.
enum SecretShapes {
    static let pattern = try! NSRegularExpression(
        pattern: #"(pg_[A-Za-z0-9_-]{16,}|pst_[A-Za-z0-9_-]{16,}|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}|(discordc|xc)_[A-Za-z0-9_-]{16,}|(codeVerifier|code_verifier|privateKey|private_key)\W{1,3}[A-Za-z0-9_-]{32,})"#)

    static func contains(_ text: String) -> Bool {
        pattern.firstMatch(in: text, range: NSRange(location: 0, length: (text as NSString).length)) != nil
    }

    /// Checks a run's stdout (minus the userJwt of totpRequired lines) and stderr.
    static func expectNone(in run: CLI.Run, sourceLocation: SourceLocation = #_sourceLocation) {
        let stdoutWithoutAllowedJwt = run.stdout.split(separator: "\n").map { line -> String in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return String(line) }
            if object["result"] as? String == "totpRequired", let jwt = object["userJwt"] as? String {
                return line.replacingOccurrences(of: jwt, with: "<userJwt>")
            }
            if object["result"] as? String == "oidcToken", let token = object["oidcToken"] as? String {
                return line.replacingOccurrences(of: token, with: "<oidcToken>")
            }
            return String(line)
        }.joined(separator: "\n")
        let leaked = contains(stdoutWithoutAllowedJwt) || contains(run.stderr)
        #expect(!leaked, "a grant, token, JWT, code, verifier or private key appeared in the CLI's output", sourceLocation: sourceLocation)
    }
}
