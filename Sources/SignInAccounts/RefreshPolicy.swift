import FoundationEssentials

/// When a Turnkey session is refreshed: with a third of its remaining life left, and at least 5
/// seconds before it expires (`PORTAL_TURNKEY_REFRESH_AT` = seconds before expiry overrides the
/// third, for tests that cannot wait a quarter of an hour).
public struct RefreshPolicy: Sendable {
    /// How long a refresh that failed on the network waits before it tries again.
    public static let retrySeconds: Double = 30
    public let secondsBeforeExpiry: Double?

    public init(secondsBeforeExpiry: Double? = nil) {
        self.secondsBeforeExpiry = secondsBeforeExpiry.flatMap { $0 > 0 ? $0 : nil }
    }

    public init(environment: [String: String]) {
        self.init(secondsBeforeExpiry: environment["PORTAL_TURNKEY_REFRESH_AT"].flatMap(Double.init))
    }

    public func delay(until expiry: Date, now: Date) -> Double {
        let remaining = expiry.timeIntervalSince(now)
        let margin = max(5, secondsBeforeExpiry ?? remaining / 3)
        return max(0, remaining - margin)
    }
}
