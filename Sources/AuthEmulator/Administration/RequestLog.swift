import CEmulatorServer
import Foundation

/// What the emulator answered, for tests and the dashboard: method, path (never a query) and status.
final class RequestLog {
    struct Entry {
        let method: String
        let path: String
        /// 0 when the connection was dropped without a response.
        let status: Int
    }
    static let capacity = 1000
    private(set) var entries: [Entry] = []

    func record(method: String, path rawPath: String, status: Int) {
        let path = Self.redacted(rawPath)
        entries.append(Entry(method: method, path: path, status: status))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        // Path only: grants and tokens travel in queries, bodies and headers; one a client put in a
        // path anyway is redacted above.
        let line = "\(method) \(path) \(status == 0 ? "dropped" : String(status))\n"
        portal_emu_log_write(line, gsize(line.utf8.count))
    }

    /// A path with every segment shaped like a grant (`pg_…`), session token (`pst_…`), JWT (`eyJ…`),
    /// the admin token (`pae_…`) or the dashboard key (`pad_…`) replaced, and whatever follows
    /// `/dashboard/` (the key, right or wrong) left out: `/dashboard/…`. Queries (`?token=…`) and
    /// headers (`Authorization`) never reach the log at all.
    static func redacted(_ path: String) -> String {
        if path.hasPrefix(DashboardKey.pathPrefix) { return DashboardKey.pathPrefix + "…" }
        return path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            ["pg_", "pst_", "eyJ", AdminToken.prefix, DashboardKey.prefix].contains(where: { segment.contains($0) })
                ? "[redacted]" : String(segment)
        }.joined(separator: "/")
    }
}
