import FoundationEssentials

/// One HTTP request as a core builds it; the platform layer sends it unchanged.
public struct HTTPRequest: Sendable, Equatable {
    /// The HTTP method: `GET`, `POST`.
    public var method: String
    /// The whole URL, query included.
    public var url: URL
    /// The header fields to send, by name.
    public var headers: [String: String]
    /// The body to send (JSON when a core sends one), or nil for none.
    public var body: Data?

    /// A request as a core builds it.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// What came back, whatever the status: the core decides what a status means.
public struct HTTPResponse: Sendable, Equatable {
    /// The HTTP status code.
    public var status: Int
    /// The response's header fields, by name as the server sent them (see `header(_:)`).
    public var headers: [String: String]
    /// The body, whole (empty when there was none).
    public var body: Data

    /// A response as a transport (or a fake in tests) received it.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A header by name, ignoring case (HTTP header names are case-insensitive).
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }
}

/// Sends requests. Implementations throw `TransportError` when no response arrived
/// (no connection, timeout, dropped connection, cancellation); the cores rethrow it unchanged.
public protocol HTTPTransport: Sendable {
    /// Sends `request` as it is and returns the response, whatever its status.
    /// - Throws: `TransportError` when no response arrived.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// The request never produced a usable response. It names the host and what went wrong, never
/// the request's path, headers or body; the words a person reads are the app's.
public struct TransportError: LocalizedError, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as a fact the app turns into words.
    public enum Kind: String, Sendable {
        /// No connection could be made (no network, the host unknown, the connection refused).
        case cannotConnect
        /// The request did not finish within the transport's time limit.
        case timedOut
        /// The connection dropped before the whole response arrived.
        case connectionLost
        /// The calling task was cancelled.
        case cancelled
        /// The server's TLS certificate was not trusted (unknown CA, expired, wrong host name).
        case untrustedCertificate
        /// The answer was larger than the transport accepts.
        case responseTooLarge
        /// The configured extra CA file (`--ca-file`, `PORTAL_AUTH_CA_FILE`, the `ca-file` setting) could
        /// not be read, so no connection was made.
        case caFileUnreadable
        /// The request could not be built (a URL the HTTP library refuses).
        case invalidRequest
        /// Anything else; `detail` has the library's words.
        case other
    }

    /// What went wrong.
    public var kind: Kind
    /// The server as `HOST:PORT` (an IPv6 host in brackets), as the message for a person names it.
    public var host: String
    /// The HTTP or TLS library's own words, for logs and bug reports.
    public var detail: String

    /// A failure of `kind` talking to `host`, with the library's `detail`.
    public init(_ kind: Kind, host: String, detail: String = "") {
        self.kind = kind
        self.host = host
        self.detail = detail
    }

    /// `TransportError.kind(host: …, detail)`, with anything shaped like a secret redacted.
    public var description: String {
        SecretRedaction.redact("TransportError.\(kind.rawValue)(host: \(host)\(detail.isEmpty ? "" : ", \(detail)"))")
    }

    /// The same as `description`: a log line, not words for a person.
    public var errorDescription: String? { description }
}

/// Requests carry grants (bodies), user JWTs and session tokens (`Authorization`, `X-Stamp`): printing
/// one, by a log line or a failed test expectation, shows only what is safe.
extension HTTPRequest: CustomStringConvertible, CustomDebugStringConvertible {
    static let secretHeaders: Set<String> = ["authorization", "x-stamp"]

    /// The method, URL and header names; the values of `Authorization` and `X-Stamp` redacted, the body
    /// only counted.
    public var description: String {
        let headerNames = headers.keys.sorted().map { name in
            Self.secretHeaders.contains(name.lowercased())
                ? "\(name): \(SecretRedaction.placeholder)" : "\(name): \(headers[name] ?? "")"
        }
        let bodySummary = body.map { "\($0.count) bytes" } ?? "none"
        return SecretRedaction.redact("\(method) \(url.absoluteString) [\(headerNames.joined(separator: ", "))] body: \(bodySummary)")
    }

    /// The same as `description`: nothing more is shown when debugging.
    public var debugDescription: String { description }
}
