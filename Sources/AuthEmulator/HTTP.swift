import AuthBase
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
    /// Set by a `pending` fault: how many answers the activity this request submits stays pending for.
    var pendingActivityReads = 0

    func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// Query parameters decoded (last occurrence wins, '+' is a space).
    var query: [String: String] { QueryString.parameters(rawQuery) }

    /// `application/x-www-form-urlencoded` body fields.
    var form: [String: String] { QueryString.parameters(ArraySlice(body)) }

    /// The raw, still-encoded value of one query parameter (the occurrence `query` reads).
    func rawQueryValue(_ name: String) -> String? { QueryString.rawValue(name, in: rawQuery) }

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
                return QueryString.decode(String(pair[1]).trimmingCharacters(in: .whitespaces))
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
    static func error(_ status: Int, _ message: String) -> EmulatorResponse {
        encoded(status, PortalWire.ErrorBody(error: message))
    }

    /// A Portal answer: `payload` as the shared wire type the client decodes, in `{"data":…}`.
    static func payload<Payload: Codable>(_ payload: Payload) -> EmulatorResponse {
        encoded(200, PortalWire.Envelope(data: payload))
    }

    static func encoded(_ status: Int, _ value: some Encodable) -> EmulatorResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return EmulatorResponse(status: status, contentType: "application/json", body: body)
    }

    static func html(_ status: Int, _ page: String) -> EmulatorResponse {
        EmulatorResponse(status: status, contentType: "text/html; charset=utf-8", body: Data(page.utf8),
                         headers: [("Cache-Control", "no-store")])
    }
    static func redirect(to location: String) -> EmulatorResponse {
        EmulatorResponse(status: 302, contentType: nil, body: Data(),
                         headers: [("Location", location), ("Cache-Control", "no-store")])
    }
}

/// Building the URLs the emulator redirects to; parsing is the shared `QueryString`.
enum FormEncoding {
    /// Appends query parameters (Java-style encoded, as Portal does) to a URL that may already carry a query.
    static func appendingQuery(_ url: String, _ items: [(String, String)]) -> String {
        url + (url.contains("?") ? "&" : "?") + JavaURLEncoder.encode(items)
    }
}
