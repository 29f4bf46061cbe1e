import FoundationEssentials

/// Where the app finds what is installed beside it (`<exe>/../share/…`): translations and, when
/// the prefix is not on XDG_DATA_DIRS, its GSettings schema. Its stylesheet, icons and brand marks
/// are compiled into the program (Resources.swift).
enum AppPaths {
    static let executable: URL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()

    /// `<exe>/../share`
    static var installedShare: URL {
        executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share")
    }

    /// `<exe>/../share/glib-2.0/schemas` when it holds a compiled schema.
    static var installedSchemas: URL? {
        let directory = installedShare.appendingPathComponent("glib-2.0/schemas")
        let compiled = directory.appendingPathComponent("gschemas.compiled")
        return FileManager.default.fileExists(atPath: compiled.path) ? directory : nil
    }
}
