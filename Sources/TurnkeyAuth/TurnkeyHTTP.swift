import FoundationEssentials

/// What the Auth Proxy and the API share on the wire: JSON bodies encoded once (the stamp signs
/// those exact bytes), the client-version header, and Turnkey's error shape turned into facts.
struct TurnkeyHTTP: Sendable {
    static let clientVersion = "portalauth-linux/\(ProductVersion.current)"
    /// How much of a server's message goes into an error.
    static let maxMessageLength = 200

    let baseURL: URL
    let transport: any HTTPTransport

    static func encode(_ body: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(body)
    }

    /// POSTs `body` to `path` with `headers` and decodes a 2xx answer as `Response`.
    func post<Response: Decodable>(
        _ path: String, body: Data, headers: [String: String],
        as _: Response.Type
    ) async throws -> Response {
        guard let url = URL(string: baseURL.absoluteString + path) else {
            throw TurnkeyAuthError.invalidConfiguration(field: "url", problem: "malformed")
        }
        var allHeaders = headers
        allHeaders["Content-Type"] = "application/json"
        allHeaders["Accept"] = "application/json"
        allHeaders[TurnkeyWire.Header.clientVersion] = Self.clientVersion
        let response = try await transport.send(HTTPRequest(method: "POST", url: url, headers: allHeaders, body: body))
        guard (200..<300).contains(response.status) else { throw Self.error(for: response, path: path) }
        guard JSONValue.parse(response.body)?.objectValue != nil,
            let decoded = try? JSONDecoder().decode(Response.self, from: response.body)
        else {
            throw TurnkeyRequestError.unreadableResponse(path: path)
        }
        return decoded
    }

    /// The facts of a non-2xx answer.
    static func error(for response: HTTPResponse, path: String) -> TurnkeyRequestError {
        let body = try? JSONDecoder().decode(TurnkeyWire.ErrorBody.self, from: response.body)
        let message = String(SecretRedaction.redact(String(body?.message?.prefix(4 * maxMessageLength) ?? "")).prefix(maxMessageLength))
        switch response.status {
        case 401: return .unauthorized(path: path, message: message)
        case 429: return .rateLimited(path: path, retryAfterSeconds: retryAfterSeconds(response))
        case 400..<500: return .rejected(status: response.status, path: path, code: body?.code, message: message)
        case 500..<600: return .serverError(status: response.status, path: path, message: message)
        default: return .unexpectedStatus(status: response.status, path: path)
        }
    }

    private static func retryAfterSeconds(_ response: HTTPResponse) -> Int? {
        response.header("Retry-After").flatMap { Int($0.trimmed) }.flatMap { $0 >= 0 ? $0 : nil }
    }
}
