/// A second, deliberately naive reading of a redirect URL, written from the rules in
/// docs/RELIABILITY.md and not from `URLText`/`QueryString`, so the fuzzer can compare the two.
/// It favours obviousness over speed: explicit index loops, byte arrays everywhere, no slicing tricks.
///
/// The rules: the fragment starts at the first `#`; the query at the first `?` before it; the scheme
/// is the bytes before the first `:` (before the query) when they are a letter followed by letters,
/// digits, `+`, `-` or `.`; the authority follows a `//` (after the scheme, if any) up to the next `/`;
/// the rest is the path.
enum ReferenceParser {
    struct Parts: Equatable {
        var scheme: [UInt8]?
        var authority: [UInt8]?
        var path: [UInt8]
        var query: [UInt8]?
        var fragment: [UInt8]?
    }

    static let hash: UInt8 = 0x23, question: UInt8 = 0x3F, colon: UInt8 = 0x3A, slash: UInt8 = 0x2F
    static let ampersand: UInt8 = 0x26, equals: UInt8 = 0x3D, plus: UInt8 = 0x2B, percent: UInt8 = 0x25
    static let space: UInt8 = 0x20

    static func split(_ bytes: [UInt8]) -> Parts {
        var endOfQueryPart = bytes.count
        var fragment: [UInt8]?
        var i = 0
        while i < bytes.count {
            if bytes[i] == hash {
                fragment = Array(bytes[(i + 1)...])
                endOfQueryPart = i
                break
            }
            i += 1
        }

        var endOfHierarchy = endOfQueryPart
        var query: [UInt8]?
        i = 0
        while i < endOfQueryPart {
            if bytes[i] == question {
                query = Array(bytes[(i + 1)..<endOfQueryPart])
                endOfHierarchy = i
                break
            }
            i += 1
        }

        var position = 0
        var scheme: [UInt8]?
        i = 0
        while i < endOfHierarchy {
            if bytes[i] == colon {
                let candidate = Array(bytes[0..<i])
                if isSchemeName(candidate) {
                    scheme = candidate
                    position = i + 1
                }
                break
            }
            i += 1
        }

        var authority: [UInt8]?
        if position + 2 <= endOfHierarchy, bytes[position] == slash, bytes[position + 1] == slash {
            var stop = position + 2
            while stop < endOfHierarchy, bytes[stop] != slash { stop += 1 }
            authority = Array(bytes[(position + 2)..<stop])
            position = stop
        }
        return Parts(
            scheme: scheme, authority: authority, path: Array(bytes[position..<endOfHierarchy]),
            query: query, fragment: fragment)
    }

    /// What a redirect is compared by: everything before the query and fragment, ASCII whitespace
    /// trimmed at both ends, then trailing `/` and whitespace stripped (in any mix, so that normalising
    /// twice changes nothing), scheme and authority lowercased in ASCII only, the path untouched.
    static func normalized(_ bytes: [UInt8]) -> [UInt8] {
        var end = 0
        while end < bytes.count, bytes[end] != question, bytes[end] != hash { end += 1 }
        var start = 0
        while start < end, isASCIIWhitespace(bytes[start]) { start += 1 }
        while end > start, isASCIIWhitespace(bytes[end - 1]) || bytes[end - 1] == slash { end -= 1 }
        let trimmed = Array(bytes[start..<end])

        let parts = split(trimmed)
        var output: [UInt8] = []
        if let scheme = parts.scheme {
            output += scheme.map(lowercased)
            output.append(colon)
        }
        if let authority = parts.authority {
            output += [slash, slash]
            output += authority.map(lowercased)
        }
        output += parts.path
        return output
    }

    /// The query's parameters in order, each decoded, empty names dropped; nil entries are never made.
    /// A later pair with the same name wins, which the caller gets by assigning in order.
    static func pairs(_ query: [UInt8]) -> [(name: [UInt8], value: [UInt8])] {
        var pieces: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in query {
            if byte == ampersand {
                if !current.isEmpty { pieces.append(current) }
                current = []
            } else {
                current.append(byte)
            }
        }
        if !current.isEmpty { pieces.append(current) }

        var result: [(name: [UInt8], value: [UInt8])] = []
        for piece in pieces {
            var name: [UInt8] = []
            var value: [UInt8] = []
            var seenEquals = false
            for byte in piece {
                if !seenEquals && byte == equals {
                    seenEquals = true
                } else if seenEquals {
                    value.append(byte)
                } else {
                    name.append(byte)
                }
            }
            let decodedName = decodeComponent(name)
            if decodedName.isEmpty { continue }
            result.append((decodedName, decodeComponent(value)))
        }
        return result
    }

    /// `+` is a space and `%XX` a byte, unless any `%` in the component lacks two hex digits after it
    /// or the decoded bytes are not UTF-8: then the component stays exactly as it arrived.
    /// Returns the bytes the component stands for, as the UTF-8 of the resulting string.
    static func decodeComponent(_ component: [UInt8]) -> [UInt8] {
        let asArrived = Array(String(decoding: component, as: UTF8.self).utf8)
        var decoded: [UInt8] = []
        var i = 0
        while i < component.count {
            let byte = component[i]
            if byte == percent {
                guard i + 2 < component.count,
                    let high = hexDigit(component[i + 1]), let low = hexDigit(component[i + 2])
                else {
                    return asArrived
                }
                decoded.append(high * 16 + low)
                i += 3
            } else {
                decoded.append(byte == plus ? space : byte)
                i += 1
            }
        }
        guard isValidUTF8(decoded) else { return asArrived }
        return decoded
    }

    static func isSchemeName(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first, isLetter(first) else { return false }
        for byte in bytes where !(isLetter(byte) || (0x30...0x39).contains(byte) || byte == plus || byte == 0x2D || byte == 0x2E) {
            return false
        }
        return true
    }

    static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    static func isASCIIWhitespace(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(byte) }
    static func lowercased(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }

    static func hexDigit(_ byte: UInt8) -> UInt8? {
        if (0x30...0x39).contains(byte) { return byte - 0x30 }
        if (0x41...0x46).contains(byte) { return byte - 0x41 + 10 }
        if (0x61...0x66).contains(byte) { return byte - 0x61 + 10 }
        return nil
    }

    /// UTF-8 as RFC 3629 defines it: no overlong forms, no surrogates, nothing above U+10FFFF.
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            let length: Int
            let minimum: UInt32
            var scalar: UInt32
            switch lead {
            case 0x00...0x7F:
                i += 1
                continue
            case 0xC2...0xDF:
                length = 2
                minimum = 0x80
                scalar = UInt32(lead & 0x1F)
            case 0xE0...0xEF:
                length = 3
                minimum = 0x800
                scalar = UInt32(lead & 0x0F)
            case 0xF0...0xF4:
                length = 4
                minimum = 0x10000
                scalar = UInt32(lead & 0x07)
            default: return false
            }
            guard i + length <= bytes.count else { return false }
            for k in 1..<length {
                let continuation = bytes[i + k]
                guard continuation & 0xC0 == 0x80 else { return false }
                scalar = scalar << 6 | UInt32(continuation & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return false }
            i += length
        }
        return true
    }
}
