import AuthTestSupport
import Foundation

struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum Subprocess {
    /// Runs a program to completion; output is captured, never echoed.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        input: String? = nil, timeout: TimeInterval = 60
    ) -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        do { try ChildSignals.launchUnblocked(process) } catch {
            return ProcessResult(status: -1, stdout: "", stderr: "could not start \(executable): \(error)")
        }
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        let stdoutData = Box(Data())
        let stderrData = Box(Data())
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            stdoutData.withLock { $0 = out.fileHandleForReading.readDataToEndOfFile() }
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            stderrData.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() }
            group.leave()
        }
        let deadline = DispatchTime.now() + timeout
        if group.wait(timeout: deadline) == .timedOut {
            process.terminate()
            // A grandchild may still hold the pipes open; do not wait for it forever.
            _ = group.wait(timeout: .now() + 5)
        }
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutData.current, as: UTF8.self),
            stderr: String(decoding: stderrData.current, as: UTF8.self))
    }
}
