import Foundation
import Testing

@testable import AuthBase

/// What a server chose reaches a terminal only escaped: no escape sequence, C1 control or
/// direction override acts, and the escapes are JSON's, so the original reads back.
@Suite("PrintableText: every control character escaped")
struct PrintableTextTests {
    /// Every scalar that acts instead of showing: C0, DEL, C1, the bidirectional controls, the separators.
    static let controls: [Unicode.Scalar] =
        (Array(0x00...0x1F) + [0x7F] + Array(0x80...0x9F) + [0x061C, 0x200E, 0x200F]
        + Array(0x202A...0x202E) + Array(0x2066...0x2069) + [0x2028, 0x2029]).compactMap(Unicode.Scalar.init)

    @Test func everyControlCharacterIsEscapedAndNothingElse() {
        for scalar in Self.controls {
            #expect(PrintableText.isControl(scalar), "U+\(String(scalar.value, radix: 16))")
            let escaped = PrintableText.escaped("a\(scalar)b")
            #expect(
                escaped.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F },
                "U+\(String(scalar.value, radix: 16)) → \(escaped.debugDescription)")
        }
        for kept in ["é", "e\u{301}", "🙂", "日本", "\u{200B}", "\u{FEFF}", "\u{A0}", " ", "~"] {
            #expect(PrintableText.escaped(kept) == kept, "\(kept.unicodeScalars.map(\.value))")
        }
    }

    @Test func theEscapesAreJSONsAndReadBack() throws {
        let text = "eu_\u{202E}fdp.exe\u{85}\u{1B}[2J\u{9B}31m\u{2066}\u{7F}\u{0}\t\n\r\\u202e\\"
        let escaped = PrintableText.escaped(text)
        #expect(escaped == #"eu_\u202efdp.exe\u0085\u001b[2J\u009b31m\u2066\u007f\u0000\t\n\r\\u202e\\"#)
        let decoded = try JSONDecoder().decode(String.self, from: Data("\"\(escaped)\"".utf8))
        #expect(decoded == text)
        for scalar in Self.controls {
            let decoded = try JSONDecoder().decode(String.self, from: Data("\"\(PrintableText.escaped(String(scalar)))\"".utf8))
            #expect(decoded.unicodeScalars.elementsEqual([scalar]), "U+\(String(scalar.value, radix: 16))")
        }
    }

    @Test func shownWordsDropControlAndFormatCharacters() {
        #expect("a\u{1B}[31mb\u{85}c\u{202E}d\u{200B}e\u{2028}f".withoutControlCharacters == "a[31mbcdef")
    }
}
