import FoundationEssentials
import PortalAuth
import Synchronization

/// Opens URLs with GIO and remembers the last one, for "Copy Link" and "Open Again".
final class RememberingBrowser: BrowserLauncher, Sendable {
    private let launcher: any BrowserLauncher
    private let remembered = Mutex<URL?>(nil)

    init(_ launcher: any BrowserLauncher) { self.launcher = launcher }

    var lastURL: URL? { remembered.withLock { $0 } }

    func forget() { remembered.withLock { $0 = nil } }

    func open(_ url: URL) async throws {
        remembered.withLock { $0 = url }
        try await launcher.open(url)
    }
}
