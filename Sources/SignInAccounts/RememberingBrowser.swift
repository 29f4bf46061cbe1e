import AuthBase
import FoundationEssentials
import Synchronization

/// Opens URLs with the desktop's launcher and remembers the last one, for "Copy Link" and "Open Again".
public final class RememberingBrowser: BrowserLauncher, Sendable {
    private let launcher: any BrowserLauncher
    private let remembered = Mutex<URL?>(nil)

    public init(_ launcher: any BrowserLauncher) { self.launcher = launcher }

    public var lastURL: URL? { remembered.withLock { $0 } }

    public func forget() { remembered.withLock { $0 = nil } }

    public func open(_ url: URL) async throws {
        remembered.withLock { $0 = url }
        try await launcher.open(url)
    }
}
