import Foundation

/// Per-key sliding-window counter (magic links per email, wrong TOTP codes per user).
struct RateWindow {
    let limit: Int
    let windowSeconds: Int
    private var hits: [String: [Int]] = [:]

    init(limit: Int, windowSeconds: Int) {
        self.limit = limit
        self.windowSeconds = windowSeconds
    }

    /// Records one hit at `now`; false (and nothing recorded) when the key is already at the limit.
    mutating func allow(_ key: String, now: Int) -> Bool {
        guard !isLimited(key, now: now) else { return false }
        hits[key, default: []].append(now)
        return true
    }

    func isLimited(_ key: String, now: Int) -> Bool { recent(key, now: now).count >= limit }

    mutating func record(_ key: String, now: Int) { hits[key, default: []].append(now) }

    mutating func clear(_ key: String) { hits[key] = nil }

    private func recent(_ key: String, now: Int) -> [Int] {
        (hits[key] ?? []).filter { now - $0 < windowSeconds && $0 <= now }
    }
}
