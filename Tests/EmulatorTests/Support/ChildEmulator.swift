import AuthTestSupport
import Foundation

/// The emulator binary as a direct child with its own pipes, for the tests of its process contract
/// (its start-up lines on stdout, its exit status on SIGTERM and SIGINT, a parent that never
/// reads stderr). Every other test starts it through `EmulatorLauncher` (script/start-emulator).
final class ChildEmulator: @unchecked Sendable {
    let process = Process()
    let baseURL: URL
    let port: Int
    /// What it printed on start-up: the listening line, the dashboard URL with the admin token, the
    /// token file (tests compare them, never print them).
    let startUpLines: [String]
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()

    /// `environment` is added to the test's own (e.g. a chosen admin token: never on a command line).
    init(drainStderr: Bool = true, environment: [String: String] = [:]) throws {
        process.executableURL = try EmulatorLauncher.executable()
        process.arguments = ["--port", "0"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        try process.run()
        startUpLines = Self.lines(3, of: stdoutPipe.fileHandleForReading)
        let line = startUpLines.first ?? ""
        let prefix = "listening on http://127.0.0.1:"
        guard line.hasPrefix(prefix), let port = Int(line.dropFirst(prefix.count)) else {
            process.terminate()
            throw EmulatorLauncher.LaunchFailure(description: "the emulator's first line was not its listening line")
        }
        self.port = port
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        if drainStderr {
            stderrPipe.fileHandleForReading.readabilityHandler = { handle in _ = handle.availableData }
        }
    }

    /// SIGTERM, then its exit status (SIGKILL after 5 seconds: never hang a test run).
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        stderrPipe.fileHandleForReading.readabilityHandler = nil
        return process.terminationStatus
    }

    /// SIGINT (Ctrl+C): its exit status and whatever it printed on stdout after the listening line.
    func interrupt() -> (status: Int32, laterStdout: String) {
        if process.isRunning { kill(process.processIdentifier, SIGINT) }
        let status = stop()
        let later = stdoutPipe.fileHandleForReading.readDataToEndOfFile()
        return (status, String(decoding: later, as: UTF8.self))
    }

    deinit { if process.isRunning { process.terminate() } }

    /// The first `count` lines (fewer at EOF); nothing after them is read.
    private static func lines(_ count: Int, of handle: FileHandle) -> [String] {
        var buffer = Data()
        while buffer.filter({ $0 == UInt8(ascii: "\n") }).count < count {
            let chunk = handle.availableData // blocks until data or EOF
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        return String(decoding: buffer, as: UTF8.self).split(separator: "\n").prefix(count).map(String.init)
    }
}
