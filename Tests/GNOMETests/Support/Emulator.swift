import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A running `portal-auth-emulator --port 0`, administered over its `/emulator/v1/` JSON API
/// (with URLSession, independently of the transport under test).
nonisolated(unsafe) private var emulatorPids: [Int32] = []

final class Emulator: @unchecked Sendable {
    let process: Process
    let baseURL: URL
    let port: Int

    /// One emulator for the whole test run; tests call `reset()` first.
    static let shared: Emulator? = try? Emulator()

    struct StartError: Error, CustomStringConvertible {
        let description: String
    }

    /// `arguments` go after `--port 0` (e.g. `--config FILE`).
    init(arguments: [String] = []) throws {
        guard FileManager.default.isExecutableFile(atPath: Binaries.emulator) else {
            throw StartError(description: "portal-auth-emulator is not built at \(Binaries.emulator); run swift build first")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: Binaries.emulator)
        process.arguments = ["--port", "0"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try ChildSignals.launchUnblocked(process)
        Self.stopAtExit(process.processIdentifier)
        // Wait for the one "listening on http://127.0.0.1:PORT" line.
        var buffer = Data()
        let deadline = Date().addingTimeInterval(20)
        var found: Int?
        while found == nil, Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer += chunk
            let text = String(decoding: buffer, as: UTF8.self)
            if let range = text.range(of: #"listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                found = Int(text[range].split(separator: ":").last!)
            }
        }
        guard let found else {
            process.terminate()
            throw StartError(description: "the emulator did not report its port")
        }
        port = found
        baseURL = URL(string: "http://127.0.0.1:\(found)")!
        // Keep draining stdout so the emulator never blocks on a full pipe.
        output.fileHandleForReading.readabilityHandler = { handle in _ = handle.availableData }
    }

    deinit {
        process.terminate()
        // Foundation keeps a started Process retained (through a run-loop source) until
        // waitUntilExit() removes it; without this each stopped emulator's Process leaks.
        process.waitUntilExit()
    }

    /// `shared` lives until the test process exits, which never runs deinit: stop the emulator then.
    private static func stopAtExit(_ pid: Int32) {
        emulatorPids.append(pid)
        if emulatorPids.count == 1 {
            atexit { for pid in emulatorPids { kill(pid, SIGTERM) } }
        }
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
            LoggedRequest(method: $0["method"] as? String ?? "", path: $0["path"] as? String ?? "",
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
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw StartError(description: "emulator admin \(method) \(path) answered \((response as? HTTPURLResponse)?.statusCode ?? 0)")
        }
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["data"]
    }
}
