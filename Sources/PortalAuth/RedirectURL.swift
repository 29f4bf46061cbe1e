import Foundation

/// The rules for the redirect that ends every sign-in: does an incoming URL target our
/// `redirectUrl`, and what does its query say.
///
/// Hand-written rather than `URLComponents`: custom schemes (`app://auth/callback`) and https
/// links must normalise the same way, the path must not be percent-decoded (`callb%61ck` is not
/// `callback`), and the query must decode exactly like Portal's other SDKs. Every function is a
/// single linear pass, because any app on the desktop can send us a URL.
enum RedirectURL {
    static let maxLength = 8192
    static let maxErrorLength = 100

    // MARK: Matching

    /// True when `url` targets `redirectUrl`: fragment and query dropped, whitespace trimmed,
    /// trailing slashes removed, scheme and authority compared case-insensitively, path exactly.
    static func matches(_ url: String, redirectUrl: String) -> Bool {
        normalized(url) == normalized(redirectUrl)
    }

    static func normalized(_ url: String) -> String {
        var target = Substring(url)
        if let hash = target.firstIndex(of: "#") { target = target[..<hash] }
        if let question = target.firstIndex(of: "?") { target = target[..<question] }
        var trimmed = Substring(target.trimmingCharacters(in: .whitespacesAndNewlines))
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }

        guard let separator = trimmed.range(of: "://"), separator.lowerBound > trimmed.startIndex else {
            return trimmed.lowercased()
        }
        let pathStart = trimmed[separator.upperBound...].firstIndex(of: "/") ?? trimmed.endIndex
        return trimmed[..<pathStart].lowercased() + trimmed[pathStart...]
    }

    // MARK: Query

    /// The query parameters of `url`: split on `&`, the last occurrence of a key wins, `+` is a
    /// space, and a `%` that does not start a valid escape is kept as it is.
    static func queryParameters(of url: String) -> [String: String] {
        var target = Substring(url)
        if let hash = target.firstIndex(of: "#") { target = target[..<hash] }
        guard let question = target.firstIndex(of: "?") else { return [:] }

        var parameters: [String: String] = [:]
        for pair in target[target.index(after: question)...].split(separator: "&") {
            let key: Substring
            let value: Substring
            if let equals = pair.firstIndex(of: "=") {
                key = pair[..<equals]
                value = pair[pair.index(after: equals)...]
            } else {
                key = pair
                value = ""
            }
            let decodedKey = decode(key)
            guard !decodedKey.isEmpty else { continue }
            parameters[decodedKey] = decode(value)
        }
        return parameters
    }

    /// Decodes one query component. Bytes that do not form valid UTF-8 once decoded leave the
    /// component exactly as it arrived.
    static func decode(_ component: Substring) -> String {
        let input = Array(component.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "+") {
                output.append(UInt8(ascii: " "))
                index += 1
            } else if byte == UInt8(ascii: "%"), index + 2 < input.count,
                      let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2]) {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return String(validating: output, as: UTF8.self) ?? String(component)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    // MARK: Scheme

    /// The custom scheme of `redirectUrl` (lowercased), or nil when it has none or it is
    /// http/https: the browser flow can only be handed back to us through a custom scheme.
    static func customScheme(of redirectUrl: String) -> String? {
        guard let colon = redirectUrl.firstIndex(of: ":") else { return nil }
        let scheme = redirectUrl[..<colon]
        guard let first = scheme.unicodeScalars.first, isLetter(first) else { return nil }
        let valid = scheme.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) }
        guard valid else { return nil }
        let lowered = scheme.lowercased()
        return lowered == "http" || lowered == "https" ? nil : lowered
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
