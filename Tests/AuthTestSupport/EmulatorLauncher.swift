import Foundation

/// A `portal-auth-emulator` started by `script/start-emulator` (the one launcher every script and
/// test harness uses) on a free port. It stops when `stop()` is called, and by itself when the test
/// process exits.
public final class EmulatorLauncher: Sendable {
    public let baseURL: URL
    public let port: Int
    public let pid: Int32
    /// The emulator's stderr: one line per request (method, path, status; never a token).
    public let logFile: URL
    /// Where the emulator wrote its admin token (mode 0600).
    public let adminTokenFile: URL
    /// This run's admin token, read from `adminTokenFile`: the one way every Swift harness learns it.
    /// The dashboard and `/emulator/v1/` answer only `Authorization: Bearer` with it.
    public let adminToken: String

    /// `Authorization: Bearer <admin token>`, for a request to the admin API or the dashboard.
    public var adminHeaders: [String: String] { ["Authorization": "Bearer \(adminToken)"] }

    public struct LaunchFailure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// The repository, found from this file's location (Tests/AuthTestSupport/).
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The built emulator: `PORTAL_AUTH_EMULATOR`, else next to the test bundle (`swift test` runs the
    /// xctest from `.build/<triple>/debug/`), else `.build/debug`.
    public static func executable() throws -> URL {
        let name = "portal-auth-emulator"
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["PORTAL_AUTH_EMULATOR"] {
            candidates.append(URL(fileURLWithPath: override))
        }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent(name))
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(repository.appendingPathComponent(".build/debug/\(name)"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw LaunchFailure(description: "portal-auth-emulator not found; run `swift build --product portal-auth-emulator` first")
        }
        return found
    }

    /// Starts the emulator with `arguments` (e.g. `--config FILE`) and returns once it listens.
    public init(arguments: [String] = []) throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("portal-auth-emulator-\(UUID().uuidString).log")
        let script = Self.repository.appendingPathComponent("script/start-emulator").path
        // The test process owns the emulator: popen's shell, the script's parent, exits at once.
        let command =
            ([
                script, "--binary", try Self.executable().path, "--log", log.path,
                "--owner", String(getpid()), "--"
            ] + arguments)
            .map(Self.shellQuoted).joined(separator: " ") + " 2>&1"
        // popen/pclose rather than Foundation's Process: several suites start emulators at once, and
        // Process.waitUntilExit can miss a child's exit when another launch races it.
        guard let stream = popen(command, "re") else {
            throw LaunchFailure(description: "script/start-emulator could not be run")
        }
        var printed = ""
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), stream) != nil {
            printed += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        let status = pclose(stream)
        // "URL PID", then the admin token file.
        let lines = printed.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let fields = lines.first?.split(separator: " ").map(String.init) ?? []
        guard status == 0, lines.count == 2, fields.count == 2, let url = URL(string: fields[0]), let pid = Int32(fields[1]),
            let port = url.port
        else {
            throw LaunchFailure(description: "script/start-emulator failed: \(printed)")
        }
        baseURL = url
        self.port = port
        self.pid = pid
        logFile = log
        adminTokenFile = URL(fileURLWithPath: lines[1])
        guard let token = try? String(contentsOf: adminTokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
            !token.isEmpty
        else {
            kill(pid, SIGTERM)
            throw LaunchFailure(description: "the emulator's admin token file \(lines[1]) cannot be read")
        }
        adminToken = token
    }

    private static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Stops the emulator the way a user would (SIGTERM), then SIGKILL after 5 seconds.
    public func stop() {
        guard kill(pid, SIGTERM) == 0 else { return }
        let deadline = Date().addingTimeInterval(5)
        while isRunning, Date() < deadline { usleep(10_000) }
        if isRunning { kill(pid, SIGKILL) }
    }

    /// Running, and not a zombie (an emulator whose parent script exited is reaped by init, or not).
    public var isRunning: Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    /// What the emulator wrote to its log so far.
    public func log() -> String {
        (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    }
}
