import Foundation

/// Where the app finds its data: next to its executable when installed (`<exe>/../share/…`),
/// else in the source tree, so `swift run portal-sign-in` works during development.
enum AppPaths {
    static let executable: URL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()

    /// `<exe>/../share`
    static var installedShare: URL {
        executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share")
    }

    /// The source tree's `data/` (this file is Sources/PortalSignIn/AppPaths.swift).
    private static var sourceData: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("data")
    }

    /// The folder holding apple-logo.svg and google-g.svg.
    static var branding: URL {
        let installed = installedShare.appendingPathComponent("portal-sign-in/branding")
        if FileManager.default.fileExists(atPath: installed.appendingPathComponent("google-g.svg").path) {
            return installed
        }
        return sourceData.appendingPathComponent("branding")
    }

    /// `<exe>/../share/glib-2.0/schemas` when it holds a compiled schema.
    static var installedSchemas: URL? {
        let directory = installedShare.appendingPathComponent("glib-2.0/schemas")
        let compiled = directory.appendingPathComponent("gschemas.compiled")
        return FileManager.default.fileExists(atPath: compiled.path) ? directory : nil
    }
}
