import Foundation

/// The package's executables, built next to the test bundle (`.build/<triple>/debug/`).
enum Binaries {
    static var directory: URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        var candidate = bundle.deletingLastPathComponent()
        // `swift test` passes the .xctest bundle path; xctest may also be given a path inside it.
        while candidate.path != "/" {
            if FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("portal-auth").path) {
                return candidate
            }
            candidate = candidate.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug")
    }

    static var portalAuth: String { directory.appendingPathComponent("portal-auth").path }
    static var emulator: String { directory.appendingPathComponent("portal-auth-emulator").path }
    static var app: String { directory.appendingPathComponent("portal-sign-in").path }
}
