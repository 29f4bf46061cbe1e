import FoundationEssentials
import PortalAuth

/// Keeps the pending sign-in record in `$XDG_STATE_HOME/portal-sign-in/pending-sign-in-<environment>.json`
/// (`~/.local/state/…`), so that after a restart "Finish signing in?" can say which sign-in the app
/// was waiting for when it ended. The file never makes a redirect solicited (that takes the running
/// app's memory), so a quit, a kill or a crash that leaves it behind lets nothing through. The record
/// holds no secret; the file is private to the user anyway (0600 in a 0700 folder).
public final class PortalPendingSignInFile: PortalPendingSignInStore, Sendable {
    /// The record's file.
    public let url: URL

    /// The file of `authEnvironmentId`'s pending sign-in, under `XDG_STATE_HOME` (else `~/.local/state`)
    /// as `environment` has them.
    public init(authEnvironmentId: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let state =
            environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.local/state"
        let safeName = String(
            authEnvironmentId.unicodeScalars.map { scalar -> Character in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "-", "_": Character(scalar)
                default: "_"
                }
            })
        url = URL(fileURLWithPath: state).appendingPathComponent("portal-sign-in")
            .appendingPathComponent("pending-sign-in-\(safeName).json")
    }

    /// The record left by the last run, or nil when there is none (or it does not read).
    public func load() -> PortalPendingSignIn? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return try? JSONDecoder().decode(PortalPendingSignIn.self, from: data)
    }

    /// Writes `record` (0600, in a 0700 folder), or removes the file for nil.
    public func save(_ record: PortalPendingSignIn?) {
        guard let record else {
            try? FileManager.default.removeItem(at: url)
            return
        }
        let folder = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        guard let data = try? JSONEncoder().encode(record) else { return }
        _ = FileManager.default.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600])
    }
}
