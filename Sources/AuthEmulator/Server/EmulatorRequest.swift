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

    /// The body as a JSON object; 400 when it is not one.
    func jsonFields() throws -> JSONFields {
        guard let object = JSON.object(from: body) else {
            throw ResponseError(400, "The request body must be a JSON object.")
        }
        return JSONFields(object: object)
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
