import FoundationEssentials

/// One HTTP request as a core builds it; the platform layer sends it unchanged.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// What came back, whatever the status: the core decides what a status means.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

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
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// The request never produced a usable response. It names the host and what went wrong, never
/// the request's path, headers or body; the words a person reads are the app's.
public struct TransportError: LocalizedError, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case cannotConnect
        case timedOut
        case connectionLost
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
        case other
    }

    public var kind: Kind
    /// The server as `HOST:PORT` (an IPv6 host in brackets), as the message for a person names it.
    public var host: String
    /// The HTTP or TLS library's own words, for logs and bug reports.
    public var detail: String

    public init(_ kind: Kind, host: String, detail: String = "") {
        self.kind = kind
        self.host = host
        self.detail = detail
    }

    public var description: String {
        SecretRedaction.redact("TransportError.\(kind.rawValue)(host: \(host)\(detail.isEmpty ? "" : ", \(detail)"))")
    }

    public var errorDescription: String? { description }
}

/// Requests carry grants (bodies), user JWTs and session tokens (`Authorization`, `X-Stamp`): printing
/// one, by a log line or a failed test expectation, shows only what is safe.
extension HTTPRequest: CustomStringConvertible, CustomDebugStringConvertible {
    static let secretHeaders: Set<String> = ["authorization", "x-stamp"]

    public var description: String {
        let headerNames = headers.keys.sorted().map { name in
            Self.secretHeaders.contains(name.lowercased())
                ? "\(name): \(SecretRedaction.placeholder)" : "\(name): \(headers[name] ?? "")"
        }
        let bodySummary = body.map { "\($0.count) bytes" } ?? "none"
        return SecretRedaction.redact("\(method) \(url.absoluteString) [\(headerNames.joined(separator: ", "))] body: \(bodySummary)")
    }

    public var debugDescription: String { description }
}
