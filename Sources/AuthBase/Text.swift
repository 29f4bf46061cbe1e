import Foundation

extension String {
    /// Empty once spaces, tabs and line breaks are trimmed: a value given but blank counts as unset.
    public var isBlank: Bool {
        trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    /// The value trimmed, or nil when it is blank.
    public var nonBlank: String? {
        let trimmed = trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
