import AuthBase
import Foundation

/// An HTTPTransport that answers from a script, in order, and records every request it got.
public final class ScriptedTransport: HTTPTransport, Sendable {
    public enum Reply: Sendable {
        case respond(status: Int, body: String)
        /// A whole response, headers included.
        case response(HTTPResponse)
        case fail(any Error)
        /// Signals `arrived`, waits for `release`, then responds.
        case held(arrived: Signal, release: Signal, status: Int, body: String)
        /// Runs `action` (e.g. to change settings mid-flight), then responds.
        case act(@Sendable () -> Void, status: Int, body: String)
        /// Answers from the request itself (a body that names what was sent).
        case answer(@Sendable (HTTPRequest) -> (status: Int, body: String))
    }

    public init() {}

    private let state = Box<(replies: [Reply], requests: [HTTPRequest])>(([], []))
    private let standing = Box<[String: (status: Int, body: String)]>([:])

    /// Answers every request whose path ends with `pathSuffix` with `body`, outside the script: a
    /// lookup the code under test makes by the way (a wallet list) does not take a scripted reply.
    public func always(_ pathSuffix: String, status: Int = 200, _ body: String) {
        standing.withLock { $0[pathSuffix] = (status, body) }
    }

    public func enqueue(_ reply: Reply) {
        state.withLock { $0.replies.append(reply) }
    }

    public func reply(_ status: Int, _ body: String) {
        enqueue(.respond(status: status, body: body))
    }

    public func reply(_ body: String) {
        reply(200, body)
    }

    public var requests: [HTTPRequest] { state.withLock { $0.requests } }
    public var paths: [String] { requests.map(\.url.path) }
    public var pendingReplies: Int { state.withLock { $0.replies.count } }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if let (status, body) = standing.withLock({ answers in answers.first { request.url.path.hasSuffix($0.key) }?.value }) {
            state.withLock { $0.requests.append(request) }
            return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        let reply = state.withLock { state -> Reply? in
            state.requests.append(request)
            return state.replies.isEmpty ? nil : state.replies.removeFirst()
        }
        switch reply {
        case nil:
            throw TransportError(.other, host: "scripted", detail: "no scripted reply for \(request.method) \(request.url.path)")
        case .respond(let status, let body)?:
            return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        case .response(let response)?:
            return response
        case .fail(let error)?:
            throw error
        case .held(let arrived, let release, let status, let body)?:
            arrived.fire()
            await release.wait()
            return HTTPResponse(status: status, body: Data(body.utf8))
        case .act(let action, let status, let body)?:
            action()
            return HTTPResponse(status: status, body: Data(body.utf8))
        case .answer(let respond)?:
            let (status, body) = respond(request)
            return HTTPResponse(status: status, body: Data(body.utf8))
        }
    }
}

extension HTTPRequest {
    /// The JSON body as a dictionary (empty when there is none).
    public var jsonBody: [String: Any] {
        guard let body, let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return [:] }
        return object
    }

    public var bodyText: String? {
        body.map { String(decoding: $0, as: UTF8.self) }
    }

    public var query: String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery
    }
}
