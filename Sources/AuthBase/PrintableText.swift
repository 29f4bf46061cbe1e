/// Text from outside (the network, a redirect, the environment) made safe to print.
///
/// The characters that act on a terminal or on how a line reads instead of showing: the C0 controls
/// (escape sequences that recolour or rewrite the screen, bells, line breaks that forge a line), DEL,
/// the C1 controls U+0080–U+009F (U+009B is a one-character CSI to many terminals, U+0085 a line
/// break), the bidirectional controls (Unicode's Bidi_Control: U+061C, U+200E, U+200F,
/// U+202A–U+202E, U+2066–U+2069, which reorder what follows) and the line and paragraph separators.
package enum PrintableText {
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar.properties.isBidiControl
            || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    /// `text` with every control character written as an escape (`\n`, `\r`, `\t`, else `\u001b`,
    /// `\u0085`, `\u202e`) and `\` as `\\`, so nothing in it acts on a terminal and the original
    /// reads back unambiguously. The escapes are JSON's: inside a JSON string they decode to `text`.
    package static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars { appendEscaped(scalar, to: &out) }
        return out
    }

    /// Appends `scalar`, escaped as `escaped(_:)` does.
    package static func appendEscaped(_ scalar: Unicode.Scalar, to out: inout String) {
        switch scalar {
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where isControl(scalar):
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
}

extension String {
    /// Without control and format characters (the ones `PrintableText` escapes, and every other
    /// Unicode format character such as U+200B), for words that are shown, not read back.
    package var withoutControlCharacters: String {
        String(
            String.UnicodeScalarView(
                unicodeScalars.filter {
                    !(PrintableText.isControl($0) || $0.properties.generalCategory == .format)
                }))
    }
}
