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
    /// The parent window each URL was opened for ("" without an anchor), in order.
    public var parentWindows: [String] { parents.current }
    private let parents = Box<[String]>([])

    public func open(_ url: URL, from anchor: (any PresentationAnchor)?) async throws {
        let parent = await anchor?.parentWindow() ?? ""
        parents.withLock { $0.append(parent) }
        try await open(url)
    }

    public func open(_ url: URL) async throws {
        let reaction = state.withLock { state -> (@Sendable (URL) throws -> Void)? in
            state.opened.append(url)
            return state.reaction
        }
        opened.fire()
        try reaction?(url)
    }
}

/// A window for sign-ins on fakes: `close()` makes it gone, as a destroyed GTK window is.
public final class FakeAnchor: PresentationAnchor, Sendable {
    public let handle: String
    private let open = Box(true)
    public init(handle: String = "x11:4e00007") { self.handle = handle }

    public var isAvailable: Bool { open.current }
    public func close() { open.withLock { $0 = false } }
    public func parentWindow() async -> String { isAvailable ? handle : "" }
    public func activationToken() async -> String? { isAvailable ? "fake-activation-token" : nil }
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
