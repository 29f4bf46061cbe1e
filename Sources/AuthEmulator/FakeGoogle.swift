import Foundation

/// The fake Google's authorization codes: single use, 10 minutes, each naming the chosen account.
final class FakeGoogle {
    static let codeLifetimeSeconds = 600
    private var codes: [String: (email: String, expiresAt: Int)] = [:]

    func issueCode(email: String, now: Int) -> String {
        let code = "gc_" + Crypto.randomToken(bytes: 16)
        codes[code] = (email, now + Self.codeLifetimeSeconds)
        return code
    }

    func redeem(code: String, now: Int) -> String? {
        guard let entry = codes.removeValue(forKey: code), now < entry.expiresAt else { return nil }
        return entry.email
    }
}
