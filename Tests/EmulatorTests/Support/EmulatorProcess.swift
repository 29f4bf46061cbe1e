import Foundation

/// The real `portal-auth-emulator` binary, started on a free port for one test suite.
final class EmulatorProcess: @unchecked Sendable {
    let process = Process()
    let baseURL: URL
    let port: Int
    private let stderrPipe = Pipe()
    private let stdoutPipe = Pipe()

    struct LaunchFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// The directory holding the built products: next to the test bundle (`swift test` runs the
    /// xctest from `.build/<triple>/debug/`), or `.build/debug` from the package root.
    static func executableURL() throws -> URL {
        let name = "portal-auth-emulator"
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["PORTAL_AUTH_EMULATOR"] {
            candidates.append(URL(fileURLWithPath: override))
        }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent(name))
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug/\(name)"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw LaunchFailure(description: "portal-auth-emulator not found; run `swift build --product portal-auth-emulator` first")
        }
        return found
    }

    /// Starts the emulator with `--port 0` (plus `arguments`) and waits for its listening line.
    /// `drainStderr: false` plays a careless parent that never reads the request log.
    init(arguments: [String] = [], drainStderr: Bool = true) throws {
        process.executableURL = try Self.executableURL()
        process.arguments = ["--port", "0"] + arguments
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        try process.run()

        let line = try Self.readLine(from: stdoutPipe.fileHandleForReading, timeout: 10)
        let prefix = "listening on http://127.0.0.1:"
        guard line.hasPrefix(prefix), let port = Int(line.dropFirst(prefix.count)) else {
            process.terminate()
            throw LaunchFailure(description: "unexpected first line from the emulator: \(line)")
        }
        self.port = port
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        // Keep draining stderr (request log lines) so the emulator never blocks on a full pipe.
        if drainStderr {
            stderrPipe.fileHandleForReading.readabilityHandler = { handle in _ = handle.availableData }
        }
    }

    /// Stops the emulator the way a user would (SIGTERM) and returns its exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning {
            process.terminate()
            // Never hang a test run on a stuck emulator: SIGKILL after 5 seconds.
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        stderrPipe.fileHandleForReading.readabilityHandler = nil
        return process.terminationStatus
    }

    /// Stops the emulator the way Ctrl+C does (SIGINT): its exit status and whatever it printed on
    /// stdout after the listening line.
    func interrupt() -> (status: Int32, laterStdout: String) {
        if process.isRunning { kill(process.processIdentifier, SIGINT) }
        let status = stop()
        let later = stdoutPipe.fileHandleForReading.readDataToEndOfFile()
        return (status, String(decoding: later, as: UTF8.self))
    }

    deinit { if process.isRunning { process.terminate() } }

    private static func readLine(from handle: FileHandle, timeout: TimeInterval) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = Data()
        while Date() < deadline {
            let chunk = handle.availableData   // blocks until data or EOF
            if chunk.isEmpty { break }
            buffer.append(chunk)
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                return String(decoding: buffer[..<newline], as: UTF8.self)
            }
        }
        throw LaunchFailure(description: "the emulator did not print its listening line")
    }

    /// Runs the binary to completion (for --help and bad configs): exit status, stdout, stderr.
    static func runToExit(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = try executableURL()
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
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
