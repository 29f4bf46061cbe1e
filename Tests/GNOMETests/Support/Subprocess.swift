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
        guard let input else {
            return run(executable, arguments, environment: environment, stdin: FileHandle.nullDevice, timeout: timeout) {}
        }
        let stdin = Pipe()
        return run(executable, arguments, environment: environment, stdin: stdin, timeout: timeout) {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
    }

    /// Runs a program with `input` on its stdin, written from another thread; with `holdOpen`, stdin
    /// then stays open (no end of input) until the program exits, so it must stop reading by itself.
    /// What the program leaves unread is dropped (the write fails with EPIPE; SIGPIPE is ignored).
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        feeding input: Data, holdOpen: Bool, timeout: TimeInterval = 60
    ) -> ProcessResult {
        signal(SIGPIPE, SIG_IGN)
        let stdin = Pipe()
        let writer = stdin.fileHandleForWriting
        let written = DispatchGroup()
        let result = run(executable, arguments, environment: environment, stdin: stdin, timeout: timeout) {
            written.enter()
            DispatchQueue.global().async {
                defer { written.leave() }
                input.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let count = Glibc.write(writer.fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
                        if count < 0 && errno == EINTR { continue }
                        guard count > 0 else { return }
                        offset += count
                    }
                }
                if !holdOpen { try? writer.close() }
            }
        }
        _ = written.wait(timeout: .now() + 5)
        if holdOpen { try? writer.close() }
        return result
    }

    /// Starts the program with `stdin`, calls `feed`, and collects its output until it exits.
    private static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]?, stdin: Any, timeout: TimeInterval,
        feed: () -> Void
    ) -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        do { try ChildSignals.launchUnblocked(process) } catch {
            return ProcessResult(status: -1, stdout: "", stderr: "could not start \(executable): \(error)")
        }
        feed()
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
