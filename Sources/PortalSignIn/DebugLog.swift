import Foundation
import PortalAuth

/// The cores' log lines (which never hold a secret) on stderr, when PORTAL_DEBUG is set.
struct DebugLog: AuthLogger {
    static func ifRequested() -> (any AuthLogger)? {
        ProcessInfo.processInfo.environment["PORTAL_DEBUG"] == nil ? nil : DebugLog()
    }

    func log(_ message: String) {
        FileHandle.standardError.write(Data("portal-sign-in: \(message)\n".utf8))
    }
}
