import Foundation

struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum Subprocess {
    /// Runs a program to completion; output is captured, never echoed.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                    timeout: TimeInterval = 60) -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try ChildSignals.launchUnblocked(process) } catch {
            return ProcessResult(status: -1, stdout: "", stderr: "could not start \(executable): \(error)")
        }
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        var stdoutData = Data(), stderrData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { stdoutData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { stderrData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let deadline = DispatchTime.now() + timeout
        if group.wait(timeout: deadline) == .timedOut {
            process.terminate()
            // A grandchild may still hold the pipes open; do not wait for it forever.
            _ = group.wait(timeout: .now() + 5)
        }
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus,
                             stdout: String(decoding: stdoutData, as: UTF8.self),
                             stderr: String(decoding: stderrData, as: UTF8.self))
    }
}
