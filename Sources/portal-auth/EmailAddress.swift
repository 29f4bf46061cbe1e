/// What send-magic-link accepts as an address before anything is sent: one `@` between a local
/// part and a domain with a dot, no spaces or control characters, at most 254 characters. Portal
/// checks further; this catches the typo (or the wrong argument) that would otherwise reach it
/// and come back as a failed sign-in.
enum EmailAddress {
    static func looksValid(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard text.count <= 254, parts.count == 2, let local = parts.first, let domain = parts.last,
            !local.isEmpty, local.count <= 64,
            domain.contains("."), !domain.hasPrefix("."), !domain.hasSuffix("."), !domain.contains("..")
        else { return false }
        return text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && !"<>()[],;:\\\"".unicodeScalars.contains($0) }
    }

    /// The argument as the error repeats it: quoted when it is short and plain, else not at all
    /// (something pasted by mistake, such as a redirect URL with a grant, is never printed).
    static func shown(_ text: String) -> String {
        let plain = text.count <= 80 && !text.contains("://") && text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
        return plain ? "“\(text)”" : "The argument"
    }
}
