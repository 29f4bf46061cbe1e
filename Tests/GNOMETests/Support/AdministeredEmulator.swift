import AuthTestSupport
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A running `portal-auth-emulator`, started by `script/start-emulator` (the launcher every harness
/// uses), administered over its `/emulator/v1/` JSON API with its admin token (with URLSession,
/// independently of the transport under test).
final class AdministeredEmulator: Sendable {
    private let launcher: EmulatorLauncher
    var baseURL: URL { launcher.baseURL }
    var port: Int { launcher.port }
    /// `Authorization: Bearer <admin token>` (read from the emulator's token file by the launcher).
    var adminHeaders: [String: String] { launcher.adminHeaders }

    /// One emulator for the whole test run; tests call `reset()` first. It stops when the test
    /// process exits (the launcher's --exit-with-pid).
    static let shared: AdministeredEmulator? = try? AdministeredEmulator()

    /// `arguments` go to the emulator (e.g. `--config FILE`).
    init(arguments: [String] = []) throws {
        launcher = try EmulatorLauncher(arguments: arguments)
    }

    deinit { launcher.stop() }

    struct AdminFailure: Error, CustomStringConvertible {
        let description: String
    }

    var apiHost: String { "127.0.0.1:\(port)" }

    // MARK: administration

    func reset() async throws { _ = try await admin("POST", "reset", body: [:]) }

    struct LoggedRequest: Equatable {
        let method: String
        let path: String
        let status: Int
    }

    func requests() async throws -> [LoggedRequest] {
        let data = try await admin("GET", "requests") as? [[String: Any]] ?? []
        return data.map {
            LoggedRequest(
                method: $0["method"] as? String ?? "", path: $0["path"] as? String ?? "",
                status: ($0["status"] as? NSNumber)?.intValue ?? 0)
        }
    }

    func requests(_ method: String, _ path: String) async throws -> [LoggedRequest] {
        try await requests().filter { $0.method == method && $0.path == path }
    }

    func fault(path: String, kind: String, count: Int = 1, seconds: Int? = nil, status: Int? = nil) async throws {
        var body: [String: Any] = ["path": path, "kind": kind, "count": count]
        if let seconds { body["seconds"] = seconds }
        if let status { body["status"] = status }
        _ = try await admin("POST", "faults", body: body)
    }

    /// The injected faults not yet used up; a `count: 1` fault that is gone has met its request.
    func pendingFaults() async throws -> [[String: Any]] {
        try await admin("GET", "faults") as? [[String: Any]] ?? []
    }

    /// Waits until every injected fault has met its request (a held request has then arrived).
    func waitUntilFaultsTaken(timeout: TimeInterval = 10) async -> Bool {
        await eventually(timeout: timeout) { (try? await self.pendingFaults().isEmpty) == true }
    }

    /// `POST /emulator/v1/environments/local-dev`: the environment's methods as a Portal admin sets them.
    func changeEnvironment(_ body: [String: Any]) async throws {
        _ = try await admin("POST", "environments/local-dev", body: body)
    }

    /// The current TOTP code of a TOTP user, on the emulator's clock.
    func totpCode(email: String) async throws -> String {
        let data = try await admin("GET", "users/\(email)/totp") as? [String: Any]
        return data?["code"] as? String ?? ""
    }

    /// Moves the emulator's clock forward (it never goes back; `reset` returns it to real time).
    func advanceClock(seconds: Int) async throws {
        _ = try await admin("POST", "clock", body: ["advanceSeconds": seconds])
    }

    /// `GET /emulator/v1/turnkey`: configs, sub-organizations, users and live sessions (never a token).
    func turnkeyState() async throws -> [String: Any] {
        try await admin("GET", "turnkey") as? [String: Any] ?? [:]
    }

    /// The Turnkey Auth Proxy and API requests the emulator answered, by path.
    func turnkeyRequests() async throws -> [LoggedRequest] {
        try await requests().filter { $0.path.hasPrefix("/turnkey/auth-proxy/") || $0.path.hasPrefix("/turnkey/api/") }
    }

    func totpSecret(email: String) async throws -> String {
        let data = try await admin("GET", "users/\(email)/totp") as? [String: Any]
        return data?["secret"] as? String ?? ""
    }

    func outbox() async throws -> [(email: String, link: String)] {
        let data = try await admin("GET", "outbox") as? [[String: Any]] ?? []
        return data.map { ($0["email"] as? String ?? "", $0["link"] as? String ?? "") }
    }

    /// Calls an admin endpoint and returns its `data`.
    func admin(_ method: String, _ path: String, body: [String: Any]? = nil) async throws -> Any? {
        var request = URLRequest(url: baseURL.appendingPathComponent("emulator/v1/\(path)"))
        request.httpMethod = method
        for (name, value) in adminHeaders { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw AdminFailure(description: "emulator admin \(method) \(path) answered \((response as? HTTPURLResponse)?.statusCode ?? 0)")
        }
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["data"]
    }
}
