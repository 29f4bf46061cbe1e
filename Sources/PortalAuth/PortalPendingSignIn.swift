import FoundationEssentials
import Synchronization

/// A sign-in this instance started and has not finished: the proof that an incoming redirect was
/// asked for. A custom scheme is desktop-wide, so any page or app can send the app a redirect;
/// only one that matches a live record in this instance's memory (or replays a grant just
/// exchanged) is solicited. The proof ends with the process, however it ends: a quit, a signal or a
/// crash runs no clean-up, and none is needed.
///
/// Started by `signInWith*`, `loginWith*` and `sendMagicLink`; valid 15 minutes; ended by a
/// successful exchange, `cancelPendingSignIn()`, the cancellation of `signInWith*`, or a new sign-in.
/// It holds no secret (the method, an email address, the time), so it may be kept in a plain file.
public struct PortalPendingSignIn: Sendable, Equatable, Codable {
    /// How the sign-in was started: a provider's browser sign-in or an email link.
    public enum Method: Sendable, Equatable, Codable {
        /// Google or Apple.
        case oauth(AuthMethod)
        /// An email link sent to `email` (trimmed and lowercased).
        case magicLink(email: String)
    }

    /// How long a pending sign-in waits for its redirect: 15 minutes.
    public static let lifetime: TimeInterval = 15 * 60

    /// This sign-in's own ID; a new sign-in gets a new one.
    public let id: UUID
    /// How the sign-in was started.
    public let method: Method
    /// The auth environment the sign-in was started in.
    public let authEnvironmentId: String
    /// When the sign-in was started.
    public let startedAt: Date

    /// A record of a sign-in started at `startedAt`.
    public init(id: UUID = UUID(), method: Method, authEnvironmentId: String, startedAt: Date) {
        self.id = id
        self.method = method
        self.authEnvironmentId = authEnvironmentId
        self.startedAt = startedAt
    }

    /// Whether `now` is within `lifetime` of `startedAt` (and not before it).
    public func isLive(at now: Date) -> Bool {
        now >= startedAt && now.timeIntervalSince(startedAt) < Self.lifetime
    }

    /// Whether a redirect exchanged at `route` is what this sign-in waits for.
    func accepts(_ route: GrantRoute) -> Bool {
        switch (method, route) {
        case (.oauth(let provider), .oauth(let loginType)): return loginType == provider
        case (.magicLink, .magicLink): return true
        default: return false
        }
    }
}

/// Where the pending record is kept for the next run (a file under `$XDG_STATE_HOME` in the app). A
/// record from an earlier run never makes a redirect solicited: the app that waited for it is gone,
/// and anyone may have finished that sign-in. It only lets the question a matching redirect gets say
/// what was started (the provider, the email address). Failing to keep it costs nothing else.
public protocol PortalPendingSignInStore: Sendable {
    /// The kept record, or nil when there is none or it cannot be read.
    func load() -> PortalPendingSignIn?
    /// Replaces the record; nil removes it.
    func save(_ record: PortalPendingSignIn?)
}

/// The default: the record lives as long as the `PortalAuth` instance.
public final class InMemoryPortalPendingSignInStore: PortalPendingSignInStore, Sendable {
    private let record = Mutex<PortalPendingSignIn?>(nil)
    /// An empty store.
    public init() {}
    /// The record last saved, or nil.
    public func load() -> PortalPendingSignIn? { record.withLock { $0 } }
    /// Replaces the record; nil removes it.
    public func save(_ record: PortalPendingSignIn?) { self.record.withLock { $0 = record } }
}
