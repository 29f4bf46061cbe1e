import AuthTestSupport
import Foundation

/// The https tests' certificates, made once per test run by script/make-test-certificates in the
/// session's scratch folder (never committed): a test CA, a server certificate for 127.0.0.1 and
/// localhost, an expired one, one for another host name, and an unrelated CA.
enum TestCertificates {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static let directory: Result<String, Failure> = {
        let path = TestScratch.directory + "/test-certificates-\(getpid())"
        let script = EmulatorLauncher.repository.appendingPathComponent("script/make-test-certificates").path
        let made = Subprocess.run(script, [path])
        return made.status == 0 ? .success(path) : .failure(Failure(description: "make-test-certificates failed: \(made.stderr)"))
    }()

    static func path(_ name: String) throws -> String { try directory.get() + "/" + name }
    static var caFile: String { get throws { try path("ca.pem") } }
}

/// An emulator serving https with one of the test certificates. Administered with `curl --insecure`:
/// the harness (never the client under test) must reach even an emulator whose certificate the
/// client is meant to refuse. The admin token goes to curl on stdin, never on its command line.
final class TLSEmulator: Sendable {
    let launcher: EmulatorLauncher
    var baseURL: URL { launcher.baseURL }
    /// `https://127.0.0.1:PORT`, the API host the CLI is given.
    var apiHost: String { launcher.baseURL.absoluteString }

    /// `certificate`: "server", "expired" or "wrong-host".
    init(certificate: String) throws {
        launcher = try EmulatorLauncher(arguments: [
            "--tls-cert", try TestCertificates.path("\(certificate).pem"),
            "--tls-key", try TestCertificates.path("\(certificate).key")
        ])
    }

    deinit { launcher.stop() }

    func admin(_ method: String, _ path: String, body: [String: Any]? = nil) throws -> Any? {
        var arguments = [
            "--silent", "--show-error", "--insecure", "--max-time", "10", "-X", method,
            baseURL.absoluteString + "/emulator/v1/" + path
        ]
        if let body {
            let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            arguments += ["-H", "Content-Type: application/json", "--data", json]
        }
        // `--config -`: curl reads this one option from stdin.
        let header = "header = \"Authorization: Bearer \(launcher.adminToken)\"\n"
        let result = Subprocess.run("/usr/bin/curl", ["--config", "-"] + arguments, input: header)
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw TestCertificates.Failure(description: "curl \(method) \(path) failed: \(result.stderr)")
        }
        return object["data"]
    }

    /// Every request the emulator saw (method, path, status), as "METHOD PATH STATUS".
    func requests() throws -> [String] {
        (try admin("GET", "requests") as? [[String: Any]] ?? []).map {
            "\($0["method"] as? String ?? "") \($0["path"] as? String ?? "") \(($0["status"] as? NSNumber)?.intValue ?? -1)"
        }
    }
}
