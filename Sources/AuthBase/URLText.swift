/// A URL as text, taken apart on its UTF-8 bytes: `scheme:[//authority]path[?query][#fragment]`.
///
/// Byte-level on purpose: any app on the desktop can send the app a URL, and Swift's `Character`
/// view would let a combining mark (U+0301) glue itself to a `?`, `#`, `&` or `=` so it stops being
/// a delimiter, and would call canonically equivalent strings equal. Every function is one linear pass.
package struct URLText: Sendable {
    package let bytes: [UInt8]
    /// Byte ranges into `bytes`; `authority` is nil without `//`, `query` and `fragment` without their marker.
    package let scheme: Range<Int>?
    package let authority: Range<Int>?
    package let path: Range<Int>
    package let query: Range<Int>?
    package let fragment: Range<Int>?

    package init(_ text: String) {
        self.init(bytes: Array(text.utf8))
    }

    package init(bytes: [UInt8]) {
        self.bytes = bytes
        let end = bytes.count
        let fragmentMark = bytes.firstIndex(of: UInt8(ascii: "#"))
        let beforeFragment = fragmentMark ?? end
        fragment = fragmentMark.map { ($0 + 1)..<end }
        let queryMark = bytes[..<beforeFragment].firstIndex(of: UInt8(ascii: "?"))
        let beforeQuery = queryMark ?? beforeFragment
        query = queryMark.map { ($0 + 1)..<beforeFragment }

        var cursor = 0
        if let colon = bytes[..<beforeQuery].firstIndex(of: UInt8(ascii: ":")), Self.isScheme(bytes[..<colon]) {
            scheme = 0..<colon
            cursor = colon + 1
        } else {
            scheme = nil
        }
        if cursor + 1 < beforeQuery, bytes[cursor] == UInt8(ascii: "/"), bytes[cursor + 1] == UInt8(ascii: "/") {
            let start = cursor + 2
            let stop = bytes[start..<beforeQuery].firstIndex(of: UInt8(ascii: "/")) ?? beforeQuery
            authority = start..<stop
            cursor = stop
        } else {
            authority = nil
        }
        path = cursor..<beforeQuery
    }

    package func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// The lowercased scheme, or nil when the URL has none.
    package var schemeName: String? {
        scheme.map { String(decoding: bytes[$0].map(Self.asciiLowercased), as: UTF8.self) }
    }

    /// The URL without query and fragment, ASCII whitespace trimmed, trailing `/` (and whitespace) removed, scheme and
    /// authority lowercased (ASCII only: U+212A KELVIN SIGN is not a `k`), the path exactly as it came.
    /// Two URLs target the same place when their normalised bytes are equal.
    package var normalizedTarget: [UInt8] {
        let head = bytes[..<(query.map { $0.lowerBound - 1 } ?? fragment.map { $0.lowerBound - 1 } ?? bytes.count)]
        var start = head.startIndex
        var end = head.endIndex
        while start < end, Self.isASCIIWhitespace(head[start]) { start += 1 }
        // Whitespace and `/` in any mix: "x /" must not leave "x " behind, or normalising twice would differ.
        while end > start, Self.isASCIIWhitespace(head[end - 1]) || head[end - 1] == UInt8(ascii: "/") { end -= 1 }
        // Re-split the trimmed text: leading whitespace shifts where the scheme starts.
        let trimmed = URLText(bytes: Array(head[start..<end]))
        let pathStart = trimmed.authority != nil || trimmed.scheme != nil ? trimmed.path.lowerBound : 0
        return trimmed.bytes[..<pathStart].map(Self.asciiLowercased) + trimmed.bytes[pathStart...]
    }

    /// Whether `self` and `other` target the same place (see `normalizedTarget`).
    package func sameTarget(as other: URLText) -> Bool {
        normalizedTarget == other.normalizedTarget
    }

    /// The query parameters (see `QueryString.parameters`), or none without a query.
    package var queryParameters: [String: String] {
        query.map { QueryString.parameters(bytes[$0]) } ?? [:]
    }

    static func isScheme(_ candidate: ArraySlice<UInt8>) -> Bool {
        guard let first = candidate.first, isASCIILetter(first) else { return false }
        return candidate.allSatisfy {
            isASCIILetter($0) || isASCIIDigit($0) || $0 == UInt8(ascii: "+")
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }

    static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    static func isASCIIDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    package static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
