import Foundation
import Testing

@testable import AuthBase

/// `trimmed`, `isBlank` and `nonBlank` replace Foundation's `trimmingCharacters(in:
/// .whitespacesAndNewlines)` in the cores (which link FoundationEssentials only): they must trim
/// exactly what it trims, or a value a person typed would mean something else than before.
@Suite("Text: trimming without Foundation")
struct TextTests {
    /// Every scalar Foundation counts as white space or a line break, and a few it does not.
    static let spaces: [Unicode.Scalar] = (0...0x3000).compactMap(Unicode.Scalar.init)
        .filter { CharacterSet.whitespacesAndNewlines.contains($0) }

    @Test func trimsWhatFoundationTrims() {
        #expect(Self.spaces.count > 20)
        for space in Self.spaces {
            let padded = "\(space)\(space)a \(space) b\(space)"
            #expect(
                padded.trimmed == padded.trimmingCharacters(in: .whitespacesAndNewlines),
                "U+\(String(space.value, radix: 16))")
            #expect(String(space).isBlank)
            #expect(String(space).nonBlank == nil)
        }
    }

    @Test func keepsWhatFoundationKeeps() {
        for text in ["a", "\u{200B}a\u{200B}", "\u{FEFF}x", "é", "e\u{301}", "\u{301}", "🙂 ", " 🙂", "\u{0}", "-\u{1F}-"] {
            #expect(text.trimmed == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.unicodeScalars.map(\.value))")
            #expect(text.isBlank == text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        }
        #expect("".isBlank && "".trimmed.isEmpty && "".nonBlank == nil)
        #expect(" \t value \r\n".nonBlank == "value")
        #expect("a\u{2028}b".trimmed == "a\u{2028}b")
    }
}
