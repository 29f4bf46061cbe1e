import AuthEmulator
import Foundation

exit(EmulatorCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
