import FoundationEssentials

/// Portal's client-auth API: one method per endpoint with what its statuses mean, over one
/// `call` that builds the request, sends it through the injected transport and turns the answer
/// into a payload or an error. Knows nothing about sessions, storage or ordering.
struct PortalAPI: Sendable {
    static let environmentHeader = PortalWire.Header.environment
    static let traceHeader = PortalWire.Header.trace
    /// How much of an error body goes into an error message.
    static let maxBodyInMessage = 500

    let baseURL: URL
    let authEnvironmentId: String
    let transport: any HTTPTransport

    /// Sends one request and returns the `data` of a 2xx answer.
    /// `mapStatus` lets an endpoint give a status its own meaning (a 400 that refuses account
    /// abstraction) before the generic mapping applies.
    private func call<Payload: Codable>(
        _ method: String,
        _ path: String,
        query: String = "",
        body: (any Encodable & Sendable)? = nil,
        bearer: String? = nil,
        as _: Payload.Type,
        mapStatus: (HTTPResponse) -> (any Error)? = { _ in nil }
    ) async throws -> Payload {
        let request = try makeRequest(method, path, query: query, body: body, bearer: bearer)
        let response = try await transport.send(request)
        if !(200..<300).contains(response.status) {
            throw mapStatus(response) ?? Self.error(for: response, path: path)
        }
        return try Self.unwrap(response.body, path: path)
    }

    func makeRequest(
        _ method: String, _ path: String, query: String = "",
        body: (any Encodable & Sendable)? = nil, bearer: String? = nil
    ) throws -> HTTPRequest {
        guard let url = URL(string: baseURL.absoluteString + path + query) else {
            throw PortalAuthError.invalidArgument(name: "apiHost")
        }
        var headers = [
            Self.environmentHeader: authEnvironmentId,
            Self.traceHeader: UUID().uuidString,
            "Accept": "application/json",
            "Content-Type": "application/json"
        ]
        if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
        var data: Data?
        if let body {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            data = try encoder.encode(body)
        }
        return HTTPRequest(method: method, url: url, headers: headers, body: data)
    }

    // MARK: Endpoints: one method each, with the statuses that mean something of their own there.
    // Every other status has its generic meaning (`error(for:path:)`): 401 unauthorized, 429 rate limited.

    /// `GET methods`: the sign-in methods the environment allows.
    func methods() async throws -> PortalWire.Methods {
        try await call("GET", PortalWire.Path.methods, as: PortalWire.Methods.self)
    }

    /// `GET oauth/urls`: the authorize URLs. A 400 with an error body is account abstraction refused,
    /// when this request asked for it.
    func oauthUrls(redirectUrl: String, isAccountAbstracted: Bool?) async throws -> PortalWire.OAuthUrls {
        var query = "?redirectUrl=" + JavaURLEncoder.encode(redirectUrl)
        if let isAccountAbstracted { query += "&isAccountAbstracted=\(isAccountAbstracted)" }
        return try await call("GET", PortalWire.Path.oauthUrls, query: query, as: PortalWire.OAuthUrls.self) { response in
            Self.accountAbstractionError(response, asked: isAccountAbstracted)
        }
    }

    /// `POST magic-links`: sends the email. A 400 with an error body is account abstraction refused,
    /// when the body asked for it.
    func sendMagicLink(_ body: PortalWire.MagicLinkBody) async throws {
        _ = try await call("POST", PortalWire.Path.magicLinks, body: body, as: PortalWire.MagicLinkSent.self) { response in
            Self.accountAbstractionError(response, asked: body.isAccountAbstracted)
        }
    }

    /// `POST oauth/tokens` or `magic-links/validations`: spends the grant.
    func exchange(grant token: String, at path: String) async throws -> PortalWire.Grant {
        try await call("POST", path, body: PortalWire.GrantTokenBody(token: token), as: PortalWire.Grant.self)
    }

    /// `POST totps/validations` with the user JWT. A 429 is too many wrong codes: wait, as everywhere.
    func validateTotp(code: String, userJwt: String) async throws -> PortalWire.TotpValidation {
        try await call(
            "POST", PortalWire.Path.totpValidations, body: PortalWire.TotpCodeBody(code: code), bearer: userJwt,
            as: PortalWire.TotpValidation.self)
    }

    /// `GET clients/me` with the session token: a 401 is the session Portal no longer accepts.
    func client(sessionToken: String) async throws -> PortalWire.Client {
        try await call("GET", PortalWire.Path.clientsMe, bearer: sessionToken, as: PortalWire.Client.self)
    }

    /// A 400 carrying `{"error":…}` means account abstraction is unavailable, but only when the
    /// request asked for it; any other 400 (a malformed email…) stays the client error it is.
    static func accountAbstractionError(_ response: HTTPResponse, asked: Bool?) -> (any Error)? {
        guard asked == true, response.status == 400, let message = serverErrorMessage(response.body) else { return nil }
        return PortalAuthError.accountAbstractionUnavailable(message: message)
    }

    /// The generic meaning of a non-2xx status. A 429 means "wait" on every endpoint, not "check your input".
    static func error(for response: HTTPResponse, path: String) -> any Error {
        let detail = bodyForMessage(response.body)
        switch response.status {
        case 401: return PortalRequestsError.unauthorized(path: path)
        case 429: return PortalAuthError.rateLimited(retryAfterSeconds: retryAfterSeconds(response))
        case 300..<400: return PortalRequestsError.redirectError(status: response.status, detail: detail)
        case 400..<500: return PortalRequestsError.clientError(status: response.status, detail: detail)
        case 500..<600: return PortalRequestsError.internalServerError(status: response.status, detail: detail)
        default: return PortalRequestsError.couldNotParseHttpResponse(path: path)
        }
    }

    /// A 429's `Retry-After` in seconds, when the server gave a number.
    static func retryAfterSeconds(_ response: HTTPResponse) -> Int? {
        response.header("Retry-After").flatMap { Int($0.trimmed) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// The `error` text of a `{"error":"…"}` body, redacted and bounded, or nil.
    static func serverErrorMessage(_ body: Data) -> String? {
        guard let decoded = try? JSONDecoder().decode(PortalWire.ErrorBody.self, from: body) else { return nil }
        return String(SecretRedaction.redact(decoded.error).prefix(200))
    }

    /// A 2xx body must be JSON (else `couldNotParseHttpResponse`) with a `data` of the
    /// documented shape (else `malformedResponse(path:, missing: "data")`).
    static func unwrap<Payload: Codable>(_ body: Data, path: String) throws -> Payload {
        guard JSONValue.parse(body) != nil else {
            throw PortalRequestsError.couldNotParseHttpResponse(path: path)
        }
        guard let envelope = try? JSONDecoder().decode(PortalWire.Envelope<Payload>.self, from: body),
            let payload = envelope.data
        else {
            throw PortalAuthError.malformedResponse(path: path, missing: "data")
        }
        return payload
    }

    private static func bodyForMessage(_ body: Data) -> String {
        let text = String(decoding: body.prefix(4 * maxBodyInMessage), as: UTF8.self)
        return String(SecretRedaction.redact(text).prefix(maxBodyInMessage))
    }
}
