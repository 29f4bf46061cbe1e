import AuthBase
import FoundationEssentials
import Glibc

/// The cores' log lines (which never hold a secret) on stderr, "PROGRAM: line", when PORTAL_AUTH_DEBUG
/// (or its older name PORTAL_DEBUG) is set and not blank. One logger for the app and the CLI;
/// `script/test` runs with it on. Lines name what servers chose (end users, organizations), so every
/// control character is escaped (`PrintableText`).
public struct StandardErrorLog: AuthLogger {
    /// The name each line starts with.
    public let program: String

    /// A logger whose lines start with `program`.
    public init(program: String) { self.program = program }

    /// A logger when `PORTAL_AUTH_DEBUG` (or `PORTAL_DEBUG`) is set in `environment`, else nil.
    public static func ifRequested(
        program: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> StandardErrorLog? {
        Setting.debug.value(environment: environment) != nil ? StandardErrorLog(program: program) : nil
    }

    /// Writes `PROGRAM: message` to stderr in one write, control characters escaped.
    public func log(_ message: String) {
        var line = "\(program): \(PrintableText.escaped(message))\n"
        line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) } // one write: lines never interleave
    }
}
