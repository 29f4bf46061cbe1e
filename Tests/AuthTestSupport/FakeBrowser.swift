import Foundation
import AuthTestSupport
@testable import PortalAuth

/// A BrowserLauncher that records what it opened and runs a scripted reaction
/// (usually: deliver a redirect to the inbox, as the desktop would).
final class FakeBrowser: BrowserLauncher, Sendable {
    private let state = Box<(opened: [URL], reaction: (@Sendable (URL) throws -> Void)?)>(([], nil))
    let opened = Signal()

    func onOpen(_ reaction: @escaping @Sendable (URL) throws -> Void) {
        state.withLock { $0.reaction = reaction }
    }

    var openedURLs: [URL] { state.withLock { $0.opened } }

    func open(_ url: URL) async throws {
        let reaction = state.withLock { state -> (@Sendable (URL) throws -> Void)? in
            state.opened.append(url)
            return state.reaction
        }
        opened.fire()
        try reaction?(url)
    }
}

struct BrowserMissing: Error {}

/// Collects log lines.
final class RecordingLogger: PortalAuthLogger, Sendable {
    private let box = Box<[String]>([])
    func log(_ message: String) { box.withLock { $0.append(message) } }
    var lines: [String] { box.current }
}
