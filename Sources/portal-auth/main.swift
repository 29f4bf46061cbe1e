import AuthBase
import FoundationEssentials
import GLibSupport
import Glibc
import PortalAuthGNOME

// portal-auth: the command-line client. Everything async runs as a MainActor task while a GLib
// main loop spins on the main thread, because libsoup and GIO deliver their results there.

/// Parses the command line against `backend`'s table, checks the keyring and the configuration
/// before anything is sent, and runs the command. Every failure is one error line and its status.
func exitStatus<Core>(_ backend: CommandBackend<Core>, _ arguments: [String]) -> ExitCode {
    do {
        switch try backend.parse(arguments) {
        case .help:
            print(backend.helpText)
            return .success
        case .version:
            print("portal-auth \(ProductVersion.current)")
            return .success
        case .run(let command, let flags, let job):
            if let refusal = KeyringCheck.refusal(needsKeyring: command.needsKeyring) { throw refusal }
            let environment = ProcessInfo.processInfo.environment
            let core = try Core.make(CoreSetup(flags: flags, environment: environment))
            // A failure to connect then says the emulator is not running, and how to start it.
            let emulator = EmulatorChoice.host(flags: flags, environment: environment, settings: [:])
            return try MainLoopBridge.run {
                await ErrorReport.$emulatorHost.withValue(emulator) { await ErrorReport.status { try await job(core) } }
            }
        }
    } catch {
        return ErrorReport.emit(error)
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let status = arguments.first == "turnkey" ? exitStatus(.turnkey, Array(arguments.dropFirst())) : exitStatus(.portal, arguments)
exit(status.rawValue)
