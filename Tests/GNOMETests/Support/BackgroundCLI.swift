import AuthTestSupport
import Foundation

/// A `portal-auth` that keeps running while the test acts (a sign-in waiting for its browser): its
/// stdout lines can be awaited one by one, and `finish()` collects the run like `CLI.run`.
final class BackgroundCLI: Sendable {
    private let process: Process
    private let stdout = Box(Data())
    private let stderr = Box(Data())
    private let command: String
    private let readers = DispatchGroup()

    init(_ cli: CLI, _ arguments: [String]) throws {
        command = arguments.first ?? ""
        process = Process()
        process.executableURL = URL(fileURLWithPath: Binaries.portalAuth)
        process.arguments = arguments
        process.environment = cli.processEnvironment()
        process.standardInput = FileHandle.nullDevice
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try ChildSignals.launchUnblocked(process)
        for (pipe, box) in [(out, stdout), (err, stderr)] {
            readers.enter()
            DispatchQueue.global().async { [readers] in
                while case let chunk = pipe.fileHandleForReading.availableData, !chunk.isEmpty {
                    box.withLock { $0.append(chunk) }
                }
                readers.leave()
            }
        }
    }

    /// The stdout lines so far, each a JSON object.
    var lines: [[String: Any]] {
        String(decoding: stdout.current, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Waits until `count` lines were printed (or the process ended); the lines then.
    func waitForLines(_ count: Int, timeout: TimeInterval = 20) async -> [[String: Any]] {
        _ = await eventually(timeout: timeout) { self.lines.count >= count || !self.process.isRunning }
        return lines
    }

    /// Waits for the exit (SIGTERM after `timeout`) and returns the whole run.
    func finish(timeout: TimeInterval = 30) async -> CLI.Run {
        if !(await eventually(timeout: timeout) { !self.process.isRunning }) { process.terminate() }
        process.waitUntilExit()
        _ = readers.wait(timeout: .now() + 5)
        let run = CLI.Run(
            status: process.terminationStatus, stdout: String(decoding: stdout.current, as: UTF8.self),
            stderr: String(decoding: stderr.current, as: UTF8.self))
        TestLogs.record(run, command: command)
        return run
    }
}

/// Another local user (`nobody`, through setpriv) and what it does with a TCP port on this machine.
enum OtherUser {
    static let setpriv = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    /// How the other user's socket asks to share the port.
    enum Sharing: String, CaseIterable, Sendable { case none, reuseAddress, reusePort, both }

    private static func socketScript(host: String, port: UInt16, sharing: Sharing, then: String) -> String {
        """
        import socket, sys, time
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if "\(sharing.rawValue)" in ("reuseAddress", "both"): s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if "\(sharing.rawValue)" in ("reusePort", "both"): s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        try:
            s.bind(("\(host)", \(port))); s.listen(5)
        except OSError as error:
            print("refused", error.errno, flush=True); sys.exit(0)
        print("bound", flush=True)
        \(then)
        """
    }

    /// Binds and listens on `host:port` as the other user and keeps it until `release()`.
    final class PortHolder: Sendable {
        private let process: Process
        init(host: String, port: UInt16, sharing: Sharing) throws {
            process = Process()
            process.executableURL = URL(fileURLWithPath: OtherUser.setpriv[0])
            process.arguments =
                Array(OtherUser.setpriv.dropFirst())
                + ["/usr/bin/python3", "-c", OtherUser.socketScript(host: host, port: port, sharing: sharing, then: "time.sleep(120)")]
            let out = Pipe()
            process.standardOutput = out
            process.standardInput = FileHandle.nullDevice
            try ChildSignals.launchUnblocked(process)
            let first = String(decoding: out.fileHandleForReading.readData(ofLength: 6), as: UTF8.self)
            guard first.hasPrefix("bound") else { throw Failure(description: "the other user could not bind \(host):\(port): \(first)") }
        }
        func release() {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Tries to bind and listen on `host:port` as the other user: "bound" or "refused ERRNO".
    static func tryToBind(host: String, port: UInt16, sharing: Sharing) -> String {
        let result = Subprocess.run(
            setpriv[0],
            Array(setpriv.dropFirst())
                + ["/usr/bin/python3", "-c", socketScript(host: host, port: port, sharing: sharing, then: "")], timeout: 20)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Sends `request` to 127.0.0.1:`port` as the other user: the status line it got back, or "no answer".
    static func send(port: UInt16, request: String) -> String {
        let script = """
            import socket
            s = socket.create_connection(("127.0.0.1", \(port)), timeout=10)
            s.sendall(bytes.fromhex("\(Array(request.utf8).map { String(format: "%02x", $0) }.joined())"))
            reply = b""
            try:
                while chunk := s.recv(4096): reply += chunk
            except OSError: pass
            print(reply.split(b"\\r\\n", 1)[0].decode() or "no answer", flush=True)
            """
        let result = Subprocess.run(setpriv[0], Array(setpriv.dropFirst()) + ["/usr/bin/python3", "-c", script], timeout: 20)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct Failure: Error, CustomStringConvertible { let description: String }
}

/// A port on 127.0.0.1 that nothing listens on right now.
func freeLoopbackPort() -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
            _ = bind(fd, pointer, length)
            return getsockname(fd, pointer, &length)
        }
    }
    return UInt16(bigEndian: address.sin_port)
}
