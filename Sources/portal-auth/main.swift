import Foundation
import PortalAuth
import PortalAuthGNOME

// portal-auth: the command-line client. Everything async runs as a MainActor task while a GLib
// main loop spins on the main thread, because libsoup and GIO deliver their results there.


func exitStatus() -> ExitCode {
    let invocation: Invocation
    do {
        invocation = try Arguments.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
        let report = ErrorReport(error)
        report.emit()
        return report.exitCode
    }
    if case .help = invocation.command {
        print(Help.text)
        return .success
    }
    let configuration = PortalConfiguration.resolve(flags: invocation.flags,
                                                     environment: ProcessInfo.processInfo.environment, settings: [:])
    do {
        let auth = try PortalAuthFactory.make(configuration)
        return try MainLoopBridge.run { await Commands(auth: auth).run(invocation.command) }
    } catch {
        let report = ErrorReport(error)
        report.emit()
        return report.exitCode
    }
}

exit(exitStatus().rawValue)
