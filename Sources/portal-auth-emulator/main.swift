import Foundation
import AuthEmulator

exit(EmulatorCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
