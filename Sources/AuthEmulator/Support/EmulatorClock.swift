import Foundation
import Synchronization

/// The emulator's notion of "now": real time plus the seconds a test advanced it by
/// (`POST /emulator/v1/clock`). Every expiry, TOTP step and rate limit reads this clock.
final class EmulatorClock: Sendable {
    private let advanced = Mutex<Double>(0)

    var advancedSeconds: Double { advanced.withLock { $0 } }
    var now: Date { Date().addingTimeInterval(advancedSeconds) }
    var unixSeconds: Int { Int(now.timeIntervalSince1970) }

    func advance(by seconds: Double) { advanced.withLock { $0 += seconds } }
    func reset() { advanced.withLock { $0 = 0 } }
}
