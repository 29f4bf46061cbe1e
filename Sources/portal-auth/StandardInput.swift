import FoundationEssentials

/// Secrets read from stdin (`-`), so they never sit on a command line where every local user can
/// read them through /proc/PID/cmdline.
enum StandardInput {
    /// The first line, without surrounding whitespace; nil at end of input.
    static func line() -> String? {
        readLine(strippingNewline: true)?.trimmed
    }

    /// Every non-blank line, trimmed.
    static func lines() -> [String] {
        var result: [String] = []
        while let next = readLine(strippingNewline: true) {
            let trimmed = next.trimmed
            if !trimmed.isEmpty { result.append(trimmed) }
        }
        return result
    }
}
