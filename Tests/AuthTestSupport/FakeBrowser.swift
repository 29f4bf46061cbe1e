import AuthBase
import Foundation

/// A BrowserLauncher that records what it opened and runs a scripted reaction
/// (usually: deliver a redirect to the inbox, as the desktop would).
public final class FakeBrowser: BrowserLauncher, Sendable {
    public init() {}

    private let state = Box<(opened: [URL], reaction: (@Sendable (URL) throws -> Void)?)>(([], nil))
    public let opened = Signal()

    public func onOpen(_ reaction: @escaping @Sendable (URL) throws -> Void) {
        state.withLock { $0.reaction = reaction }
    }

    public var openedURLs: [URL] { state.withLock { $0.opened } }

    public func open(_ url: URL) async throws {
        let reaction = state.withLock { state -> (@Sendable (URL) throws -> Void)? in
            state.opened.append(url)
            return state.reaction
        }
        opened.fire()
        try reaction?(url)
    }
}

public struct BrowserMissing: Error {
    public init() {}
}

/// Collects log lines.
public final class RecordingLogger: AuthLogger, Sendable {
    public init() {}

    private let box = Box<[String]>([])
    public func log(_ message: String) { box.withLock { $0.append(message) } }
    public var lines: [String] { box.current }
}
