import Foundation
import PortalAuthEmulator

exit(EmulatorCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
