// String helpers the cores need, in the standard library alone: the CLI links FoundationEssentials,
// not Foundation, whose `trimmingCharacters(in:)` and `replacingOccurrences(of:with:)` these replace.

extension StringProtocol {
    /// Without leading and trailing white space and line breaks, as Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` trims them.
    package var trimmed: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpaceOrLineBreak($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isSpaceOrLineBreak($0) })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// Empty once spaces, tabs and line breaks are trimmed: a value given but blank counts as unset.
    package var isBlank: Bool {
        unicodeScalars.allSatisfy(isSpaceOrLineBreak)
    }

    /// The value trimmed, or nil when it is blank.
    package var nonBlank: String? {
        let trimmed = self.trimmed
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// Foundation's `.whitespacesAndNewlines`: Unicode's White_Space scalars and U+200B ZERO WIDTH SPACE.
private func isSpaceOrLineBreak(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isWhitespace || scalar == "\u{200B}"
}
