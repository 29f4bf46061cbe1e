import AuthBase
import Foundation
import Synchronization

/// An HTTPTransport that answers by path, as a small fake Turnkey: each path's handler gets the
/// request and returns (status, body). Every request is recorded; a path with no handler is a 404.
public final class RoutedTransport: HTTPTransport, Sendable {
    public typealias Handler = @Sendable (HTTPRequest) -> (status: Int, body: String)

    private let state = Mutex<(routes: [String: Handler], requests: [HTTPRequest])>(([:], []))

    public init() {}

    /// Answers `path` (the URL's path, e.g. `/turnkey/api/public/v1/query/get_user`) with `handler`.
    public func route(_ path: String, _ handler: @escaping Handler) {
        state.withLock { $0.routes[path] = handler }
    }

    public var requests: [HTTPRequest] { state.withLock { $0.requests } }
    public var paths: [String] { requests.map(\.url.path) }
    public func requests(to path: String) -> [HTTPRequest] { requests.filter { $0.url.path == path } }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let handler = state.withLock { state -> Handler? in
            state.requests.append(request)
            return state.routes[request.url.path]
        }
        let (status, body) = handler?(request) ?? (404, #"{"code":5,"message":"not found","details":[]}"#)
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }
}
