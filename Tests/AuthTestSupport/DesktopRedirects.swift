import AuthBase
import Synchronization

/// The desktop offering URLs to a core, as the app does with `::open`: the in-flight browser sign-in
/// takes its own.
/// It holds the core weakly: a fake browser's reaction keeps it, and the core keeps that browser, so a
/// strong reference would be a cycle that outlives the test (LeakSanitizer reports the whole fixture).
public struct DesktopRedirects: Sendable {
    private let reference: WeakCore

    public init(_ core: any BrowserSignInCore & AnyObject) { reference = WeakCore(core) }

    /// Whether the in-flight sign-in took `url` (false when none runs or it is not its redirect).
    @discardableResult
    public func deliver(_ url: String) -> Bool { reference.core?.offer(url)?.isTaken ?? false }

    /// Whether a sign-in waits for its redirect.
    public var isWaiting: Bool { reference.core?.browserSignInPage != nil }
}

private final class WeakCore: Sendable {
    private let box: Mutex<WeakBox>

    init(_ core: any BrowserSignInCore & AnyObject) { box = Mutex(WeakBox(core: core)) }

    var core: (any BrowserSignInCore & AnyObject)? { box.withLock { $0.core } }

    private struct WeakBox: @unchecked Sendable {
        weak var core: (any BrowserSignInCore & AnyObject)?
    }
}
