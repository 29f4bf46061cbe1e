/// `name=value&…` as Portal's SDKs read a redirect's query (and the emulator its forms): split on
/// `&`, the first `=` separates name and value, the last occurrence of a name wins, empty names are
/// skipped. A component decodes `+` to a space and `%XX` to its byte; a component with any malformed
/// escape, or whose bytes are not UTF-8 once decoded, is kept exactly as it arrived, whole.
package enum QueryString {
    package static func parameters(_ query: String) -> [String: String] {
        parameters(ArraySlice(query.utf8))
    }

    package static func parameters(_ query: ArraySlice<UInt8>) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in rawPairs(query) {
            let decodedName = decode(name)
            guard !decodedName.isEmpty else { continue }
            result[decodedName] = decode(value)
        }
        return result
    }

    /// The still-encoded value of `name` where `parameters` would take it from (the last occurrence).
    package static func rawValue(_ name: String, in query: String) -> String? {
        let pairs = rawPairs(ArraySlice(query.utf8))
        guard let pair = pairs.last(where: { decode($0.name) == name }) else { return nil }
        return String(decoding: pair.value, as: UTF8.self)
    }

    /// The pairs in order, undecoded. A pair without `=` has an empty value.
    package static func rawPairs(_ query: ArraySlice<UInt8>) -> [(name: ArraySlice<UInt8>, value: ArraySlice<UInt8>)] {
        query.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { pair in
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return (pair, pair[pair.endIndex...]) }
            return (pair[..<equals], pair[(equals + 1)...])
        }
    }

    package static func decode(_ component: String) -> String {
        decode(ArraySlice(component.utf8))
    }

    package static func decode(_ component: ArraySlice<UInt8>) -> String {
        let raw = String(decoding: component, as: UTF8.self)
        var output: [UInt8] = []
        output.reserveCapacity(component.count)
        var index = component.startIndex
        while index < component.endIndex {
            let byte = component[index]
            if byte == UInt8(ascii: "+") {
                output.append(UInt8(ascii: " "))
                index += 1
            } else if byte == UInt8(ascii: "%") {
                guard index + 2 < component.endIndex,
                    let high = hexValue(component[index + 1]), let low = hexValue(component[index + 2])
                else {
                    return raw
                }
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return String(validating: output, as: UTF8.self) ?? raw
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
