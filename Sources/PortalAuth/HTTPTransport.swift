import Foundation

/// One HTTP request as the core builds it; the platform layer sends it unchanged.
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
}

/// Sends requests. Implementations throw `TransportError` when no response arrived
/// (no connection, timeout, dropped connection, cancellation); the core rethrows it unchanged.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// The request never produced a response. The message must not contain the request body or headers.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case cannotConnect
        case timedOut
        case connectionLost
        case cancelled
        case other
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "Network error (\(kind.rawValue)): \(message)" }
}
