import AuthTestSupport
import Foundation

/// The real `portal-auth-emulator` binary for one test suite, started by `script/start-emulator`
/// (the launcher every harness uses).
final class EmulatorProcess: Sendable {
    private let launcher: EmulatorLauncher

    init(arguments: [String] = []) throws {
        launcher = try EmulatorLauncher(arguments: arguments)
    }

    var baseURL: URL { launcher.baseURL }
    var port: Int { launcher.port }
    var pid: Int32 { launcher.pid }
    var adminToken: String { launcher.adminToken }
    var adminTokenFile: URL { launcher.adminTokenFile }
    /// The emulator's stderr (its request log) so far.
    func log() -> String { launcher.log() }

    func stop() { launcher.stop() }

    deinit { launcher.stop() }

    /// Runs the binary to completion (for --help and bad configs): exit status, stdout, stderr.
    static func runToExit(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = try EmulatorLauncher.executable()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }
}

/// oathtool (an independent RFC 6238 implementation) computes the codes the tests type.
enum OathTool {
    static func code(secret: String, at unixSeconds: Int? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/oathtool")
        process.arguments = ["--totp", "-b"] + (unixSeconds.map { ["--now", "@\($0)"] } ?? []) + [secret]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
