import Foundation

/// The emulator's notion of "now": real time plus the seconds a test advanced it by
/// (`POST /emulator/v1/clock`). Every expiry, TOTP step and rate limit reads this clock.
final class EmulatorClock {
    private(set) var advancedSeconds: Double = 0

    var now: Date { Date().addingTimeInterval(advancedSeconds) }
    var unixSeconds: Int { Int(now.timeIntervalSince1970) }

    func advance(by seconds: Double) { advancedSeconds += seconds }
    func reset() { advancedSeconds = 0 }
}
