import FoundationEssentials
import Glibc
import PortalAuth
import AuthPlatform
import TurnkeyAuth

// portal-auth: the command-line client. Everything async runs as a MainActor task while a GLib
// main loop spins on the main thread, because libsoup and GIO deliver their results there.


func exitStatus() -> ExitCode {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "turnkey" { return turnkeyExitStatus(Array(arguments.dropFirst())) }
    let invocation: Invocation
    do {
        invocation = try Arguments.parse(arguments)
    } catch {
        let report = ErrorReport(error)
        report.emit()
        return report.exitCode
    }
    if case .help = invocation.command {
        print(Help.text)
        return .success
    }
    if let refusal = KeyringCheck.refusal(needsKeyring: invocation.command.needsKeyring) {
        refusal.emit()
        return refusal.exitCode
    }
    let environment = ProcessInfo.processInfo.environment
    let configuration = PortalConfiguration.resolve(flags: invocation.flags, environment: environment, settings: [:])
    guard configuration.isSetUp else {
        NotSetUp.portal.emit()
        return NotSetUp.portal.exitCode
    }
    let transport = SoupTransport(configuration: .resolve(flags: invocation.flags, environment: environment, settings: [:]))
    do {
        let auth = try PortalAuthFactory.make(configuration, logger: StandardErrorLog.ifRequested(program: "portal-auth"), transport: transport)
        let commands = Commands(auth: auth, configuration: configuration, transport: transport)
        return try MainLoopBridge.run { await commands.run(invocation.command) }
    } catch {
        let report = ErrorReport(error)
        report.emit()
        return report.exitCode
    }
}

/// `portal-auth turnkey …`: the same loop, output and exit statuses, with a `TurnkeyAuth`.
func turnkeyExitStatus(_ arguments: [String]) -> ExitCode {
    let invocation: TurnkeyInvocation
    do {
        invocation = try TurnkeyArguments.parse(arguments)
    } catch {
        let report = ErrorReport(error)
        report.emit()
        return report.exitCode
    }
    if case .help = invocation.command {
        print(Help.turnkey)
        return .success
    }
    if let refusal = KeyringCheck.refusal(needsKeyring: invocation.command.needsKeyring) {
        refusal.emit()
        return refusal.exitCode
    }
    let environment = ProcessInfo.processInfo.environment
    let configuration = TurnkeyConfiguration.resolve(flags: invocation.flags, environment: environment, settings: [:])
    guard configuration.isSetUp else {
        NotSetUp.turnkey.emit()
        return NotSetUp.turnkey.exitCode
    }
    let transport = SoupTransport(configuration: .resolve(flags: invocation.flags, environment: environment, settings: [:]))
    do {
        let auth = try TurnkeyAuthFactory.make(configuration, logger: StandardErrorLog.ifRequested(program: "portal-auth"), transport: transport)
        return try MainLoopBridge.run { await TurnkeyCommands(auth: auth).run(invocation.command) }
    } catch {
        let report = ErrorReport(error)
        report.emit()
        return report.exitCode
    }
}

exit(exitStatus().rawValue)
