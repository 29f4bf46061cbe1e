import Foundation

/// Another account on the same computer, for real: /usr/bin/python3 running as uid and gid 65534
/// (`nobody`) through setpriv. What it does with ports and pages is added by the test targets that
/// need it (GNOMETests: ports it binds or holds; EmulatorTests: pages it serves, requests it sends).
public enum OtherUser {
    public static let setpriv = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    /// A `python3 -c script arguments…` process as the other user, not yet started, its stdout piped.
    public static func python(_ script: String, _ arguments: [String] = []) -> (process: Process, stdout: Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: setpriv[0])
        process.arguments = Array(setpriv.dropFirst()) + ["/usr/bin/python3", "-c", script] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return (process, out)
    }

    /// Runs `script` to its end as the other user; its stdout parsed as a JSON object.
    public static func run(_ script: String, _ arguments: [String]) throws -> [String: Any] {
        let (process, out) = python(script, arguments)
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }
}
