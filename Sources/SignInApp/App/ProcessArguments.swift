import FoundationEssentials
import Glibc

/// The command line, moved out of the process's argument area before anything runs: a launcher
/// without D-Bus starts `portal-sign-in URI`, and that URI carries a single-use grant which every
/// local user could read in /proc/PID/cmdline for as long as the app runs. The copies live on the
/// heap; the original bytes after the program name are zeroed.
struct ProcessArguments {
    let arguments: [String]

    static func takeFromCommandLine() -> ProcessArguments {
        let taken = ProcessArguments(arguments: CommandLine.arguments)
        let argv = CommandLine.unsafeArgv
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = argv[index] else { continue }
            memset(argument, 0, strlen(argument))
        }
        return taken
    }

    /// Runs `body` with a C argv of the copies (valid only inside `body`).
    func withArgv<T>(_ body: (Int32, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> T) -> T {
        var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeMutableBufferPointer { buffer in body(Int32(arguments.count), buffer.baseAddress!) }
    }
}
