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

    /// `fileLimit`: the soft and hard limit of open files the CLI runs with (through prlimit, which
    /// execs it: the process is the CLI's own).
    init(_ cli: CLI, _ arguments: [String], fileLimit: Int? = nil) throws {
        command = arguments.first ?? ""
        process = Process()
        if let fileLimit {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
            process.arguments = ["--nofile=\(fileLimit)", "--", Binaries.portalAuth] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: Binaries.portalAuth)
            process.arguments = arguments
        }
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

    /// A run a failed test left behind is not left running (a sign-in would wait for minutes).
    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// The stdout lines so far, each a JSON object.
    var lines: [[String: Any]] {
        String(decoding: stdout.current, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Ends a run the test has no more use for, at once (SIGKILL), and reaps it: a Process never
    /// waited for keeps itself alive to the end of the test run.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The stderr so far: the notes for a person.
    var stderrText: String { String(decoding: stderr.current, as: UTF8.self) }

    var processID: Int32 { process.processIdentifier }

    /// Sends `signal` (SIGINT as Ctrl+C does, SIGTERM) to the CLI.
    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Seconds of CPU (user and system) the CLI has used so far, from /proc/PID/stat.
    var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(processID)/stat", encoding: .utf8),
            let afterName = stat.range(of: ") ", options: .backwards)
        else { return 0 }
        // After "pid (comm) ": state is field 3, utime and stime are fields 14 and 15.
        let fields = stat[afterName.upperBound...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Waits until `count` lines were printed (or the process ended); the lines then.
    func waitForLines(_ count: Int, timeout: TimeInterval = 20) async -> [[String: Any]] {
        _ = await eventually(timeout: timeout) { self.lines.count >= count || !self.process.isRunning }
        return lines
    }

    /// Waits for the exit (SIGTERM after `timeout`, SIGKILL 5 s later: an interrupted sign-in keeps
    /// running while it holds its port) and returns the whole run.
    func finish(timeout: TimeInterval = 30) async -> CLI.Run {
        if !(await eventually(timeout: timeout) { !self.process.isRunning }) {
            process.terminate()
            if !(await eventually(timeout: 5) { !self.process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        _ = readers.wait(timeout: .now() + 5)
        let run = CLI.Run(
            status: process.terminationStatus, stdout: String(decoding: stdout.current, as: UTF8.self),
            stderr: String(decoding: stderr.current, as: UTF8.self))
        TestLogs.record(run, command: command)
        return run
    }
}

/// What another local user (`nobody`, through setpriv) does with a TCP port on this machine.
extension OtherUser {
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

    /// Sends `request` to 127.0.0.1:`port` as the other user, from `from`:`sourcePort` (0: any): the
    /// status line it got back, or "no answer" (closed, or reset, without a response).
    static func send(port: UInt16, request: String, from: String = "127.0.0.1", sourcePort: UInt16 = 0) -> String {
        let script = """
            import socket
            s = socket.create_connection(("127.0.0.1", \(port)), timeout=10, source_address=("\(from)", \(sourcePort)))
            try:
                s.sendall(bytes.fromhex("\(Array(request.utf8).map { String(format: "%02x", $0) }.joined())"))
            except OSError: pass
            reply = b""
            try:
                while chunk := s.recv(4096): reply += chunk
            except OSError: pass
            print(reply.split(b"\\r\\n", 1)[0].decode() or "no answer", flush=True)
            """
        let result = Subprocess.run(setpriv[0], Array(setpriv.dropFirst()) + ["/usr/bin/python3", "-c", script], timeout: 20)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The other user opening `connections` connections to 127.0.0.1:`port` and sending one byte on
    /// each every two seconds (a head that never ends), until `stop()` or two minutes.
    final class SlowConnections: Sendable {
        private let process: Process
        /// How many connections were open when the flood was in place.
        let opened: Int

        init(port: UInt16, connections: Int) throws {
            // Connected all at once (non-blocking), as a flood would: one by one takes minutes here.
            let script = """
                import resource, selectors, socket, time
                soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
                resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, \(connections) + 64), hard))
                started, sockets = time.monotonic(), []
                for _ in range(\(connections)):
                    s = socket.socket()
                    s.setblocking(False)
                    s.connect_ex(("127.0.0.1", \(port)))
                    sockets.append(s)
                selector, opened = selectors.DefaultSelector(), 0
                for s in sockets: selector.register(s, selectors.EVENT_WRITE)
                pending = len(sockets)
                while pending and time.monotonic() - started < 30:
                    for key, _ in selector.select(timeout=1):
                        selector.unregister(key.fileobj)
                        pending -= 1
                        opened += key.fileobj.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0
                print("opened", opened, flush=True)
                while time.monotonic() - started < 120:
                    for s in sockets:
                        try: s.send(b"G")
                        except OSError: pass
                    time.sleep(2)
                """
            process = Process()
            process.executableURL = URL(fileURLWithPath: OtherUser.setpriv[0])
            process.arguments = Array(OtherUser.setpriv.dropFirst()) + ["/usr/bin/python3", "-c", script]
            let out = Pipe()
            process.standardOutput = out
            process.standardInput = FileHandle.nullDevice
            try ChildSignals.launchUnblocked(process)
            var first = ""
            while !first.hasSuffix("\n"), case let byte = out.fileHandleForReading.readData(ofLength: 1), !byte.isEmpty {
                first += String(decoding: byte, as: UTF8.self)
            }
            guard first.hasPrefix("opened "), let count = Int(first.dropFirst(7).trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw Failure(description: "the other user's connections did not open: \(first)")
            }
            opened = count
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }
}

/// A connection of this user's to 127.0.0.1:`port` that says nothing (a browser's preconnect).
struct OpenConnection {
    let fd: Int32
    /// The port it is bound to on 127.0.0.1.
    let localPort: UInt16

    init(port: UInt16) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(port.bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let connected = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                guard connect(fd, pointer, length) == 0 else { return false }
                return getsockname(fd, pointer, &length) == 0
            }
        }
        guard connected else {
            Glibc.close(fd)
            throw OtherUser.Failure(description: "cannot connect to 127.0.0.1:\(port)")
        }
        self.fd = fd
        localPort = UInt16(bigEndian: address.sin_port)
    }

    func close() { Glibc.close(fd) }
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
