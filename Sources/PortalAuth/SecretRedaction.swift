/// Removes anything shaped like a Portal grant (`pg_…`), session token (`pst_…`) or JWT
/// (`eyJ….eyJ….sig`) from text that came from outside (a redirect URL, a server body, a store
/// message) before it goes into an error or a log line.
///
/// Works on runs of token characters (`A-Z a-z 0-9 _ - .`) in one linear pass, so a hostile
/// input costs no more than its length. Over-redacting a harmless word is fine; leaking is not.
enum SecretRedaction {
    static let placeholder = "[redacted]"

    static func redact(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var run = ""
        for scalar in text.unicodeScalars {
            if isTokenScalar(scalar) {
                run.unicodeScalars.append(scalar)
            } else {
                output += looksSecret(run) ? placeholder : run
                run = ""
                output.unicodeScalars.append(scalar)
            }
        }
        output += looksSecret(run) ? placeholder : run
        return output
    }

    static func containsSecret(_ text: String) -> Bool {
        redact(text) != text
    }

    private static func looksSecret(_ run: String) -> Bool {
        guard run.count >= 4 else { return false }
        if run.contains("pg_") || run.contains("pst_") { return true }
        return run.contains("eyJ") && run.contains(".")
    }

    private static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "_", "-", ".": return true
        default: return false
        }
    }
}
