import Foundation

/// The fake Google's authorization codes: single use, 10 minutes, each naming the chosen account.
final class FakeGoogle {
    static let codeLifetimeSeconds = 600
    private let codes: ExpiringTakeOnceStore<String>

    init(clock: EmulatorClock) { codes = ExpiringTakeOnceStore(clock: clock) }

    func issueCode(email: String) -> String {
        let code = "gc_" + Crypto.randomToken(bytes: 16)
        codes.put(email, for: code, lifetimeSeconds: Self.codeLifetimeSeconds)
        return code
    }

    /// The account the code was issued for; nil when unknown, spent or expired.
    func redeem(code: String) -> String? { codes.take(code) }
}
