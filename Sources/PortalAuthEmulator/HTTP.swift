import Foundation

/// One request as the router sees it: nothing of libsoup leaks past the server glue.
struct EmulatorRequest {
    var method: String
    /// Decoded path, never with a query.
    var path: String
    /// The query exactly as it arrived on the wire (still percent-encoded), or "".
    var rawQuery: String
    /// Header names lowercased.
    var headers: [String: String]
    var body: Data

    func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// Query parameters decoded (last occurrence wins, '+' is a space).
    var query: [String: String] { FormEncoding.decode(rawQuery) }

    /// `application/x-www-form-urlencoded` body fields.
    var form: [String: String] { FormEncoding.decode(String(decoding: body, as: UTF8.self)) }

    /// The raw, still-encoded value of one query parameter (first occurrence).
    func rawQueryValue(_ name: String) -> String? {
        for pair in rawQuery.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts[0] == name { return parts.count > 1 ? String(parts[1]) : "" }
        }
        return nil
    }

    /// The token of `Authorization: Bearer <token>`, if any.
    var bearerToken: String? {
        guard let value = header("authorization") else { return nil }
        let prefix = "bearer "
        guard value.lowercased().hasPrefix(prefix) else { return nil }
        let token = value.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    func cookie(_ name: String) -> String? {
        guard let header = header("cookie") else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == name {
                return FormEncoding.percentDecode(String(pair[1]).trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }
}

/// What to send back; the server glue writes it out.
struct EmulatorResponse {
    var status: Int
    var contentType: String?
    var body: Data
    var headers: [(String, String)] = []

    static func json(_ status: Int, _ object: Any) -> EmulatorResponse {
        EmulatorResponse(status: status, contentType: "application/json", body: JSON.encode(object))
    }
    static func data(_ object: Any) -> EmulatorResponse { json(200, ["data": object]) }
    static func error(_ status: Int, _ message: String) -> EmulatorResponse { json(status, ["error": message]) }

    static func html(_ status: Int, _ page: String) -> EmulatorResponse {
        EmulatorResponse(status: status, contentType: "text/html; charset=utf-8", body: Data(page.utf8),
                         headers: [("Cache-Control", "no-store")])
    }
    static func redirect(to location: String) -> EmulatorResponse {
        EmulatorResponse(status: 302, contentType: nil, body: Data(),
                         headers: [("Location", location), ("Cache-Control", "no-store")])
    }
}

enum FormEncoding {
    /// Decodes `a=1&b=2` (query or form body). Last occurrence wins; '+' means space; bad escapes stay raw.
    static func decode(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = percentDecode(String(parts[0]).replacingOccurrences(of: "+", with: " "))
            let value = parts.count > 1 ? percentDecode(String(parts[1]).replacingOccurrences(of: "+", with: " ")) : ""
            result[name] = value
        }
        return result
    }

    static func percentDecode(_ text: String) -> String { text.removingPercentEncoding ?? text }

    /// Java's URLEncoder as Portal uses it: `A-Za-z0-9-_.*` stay, space is `%20`, all else `%XX` (UTF-8, uppercase).
    static func javaURLEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "*"):
                out.append(Character(UnicodeScalar(byte)))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// Appends query parameters to a URL that may already carry a query.
    static func appendingQuery(_ url: String, _ items: [(String, String)]) -> String {
        let encoded = items.map { "\(javaURLEncode($0.0))=\(javaURLEncode($0.1))" }.joined(separator: "&")
        return url + (url.contains("?") ? "&" : "?") + encoded
    }
}
