import CPortalShim
import Foundation
import PortalAuth

/// `HTTPTransport` on libsoup-3. Every libsoup call runs on GLib's global default main context
/// (see `MainLoopBridge`), which must be iterated while a request is in flight.
///
/// Redirects are not followed: the caller sees a 3xx with its `Location`. Requests that carry a body
/// go out on a fresh connection, so libsoup never silently re-sends one (a grant must not be sent twice)
/// after a kept-alive connection turns out to be closed.
public final class SoupTransport: HTTPTransport, @unchecked Sendable {
    /// Seconds a connection may stay silent (connect, send or wait for the response) before `timedOut`.
    public let timeoutSeconds: UInt32
    /// Only touched on the main context's thread.
    private var session: UnsafeMutablePointer<SoupSession>?

    public init(timeoutSeconds: UInt32 = 30) {
        self.timeoutSeconds = timeoutSeconds
    }

    deinit {
        if let session {
            MainLoopBridge.invoke { g_object_unref(session) }
        }
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let cancellable = g_cancellable_new()!
        defer { g_object_unref(cancellable) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, Error>) in
                MainLoopBridge.invoke {
                    self.start(request, cancellable: cancellable, continuation: continuation)
                }
            }
        } onCancel: {
            // Cancel on the main context too, so libsoup sees it on its own thread.
            g_object_ref(cancellable)
            MainLoopBridge.invoke {
                g_cancellable_cancel(cancellable)
                g_object_unref(cancellable)
            }
        }
    }

    /// Runs on the main context.
    private func start(_ request: HTTPRequest, cancellable: UnsafeMutablePointer<GCancellable>,
                       continuation: CheckedContinuation<HTTPResponse, Error>) {
        let session = currentSession()
        guard let message = soup_message_new(request.method, request.url.absoluteString) else {
            continuation.resume(throwing: TransportError(.other, message: "The request URL is not valid, so nothing was sent."))
            return
        }
        let headers = soup_message_get_request_headers(message)
        for (name, value) in request.headers {
            soup_message_headers_replace(headers, name, value)
        }
        var flags = SOUP_MESSAGE_NO_REDIRECT.rawValue
        if let body = request.body {
            let bytes = body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            soup_message_set_request_body_from_bytes(message, nil, bytes)
            g_bytes_unref(bytes)
            flags |= SOUP_MESSAGE_NEW_CONNECTION.rawValue
        }
        soup_message_set_flags(message, SoupMessageFlags(rawValue: flags))

        let pending = PendingRequest(message: message, host: request.url.host ?? "the server", continuation: continuation)
        soup_session_send_and_read_async(session, message, G_PRIORITY_DEFAULT, cancellable, { source, result, userData in
            let pending = Unmanaged<PendingRequest>.fromOpaque(userData!).takeRetainedValue()
            pending.finish(session: UnsafeMutableRawPointer(source!).assumingMemoryBound(to: SoupSession.self), result: result!)
        }, Unmanaged.passRetained(pending).toOpaque())
    }

    private func currentSession() -> UnsafeMutablePointer<SoupSession> {
        if let session { return session }
        let created = soup_session_new()!
        soup_session_set_timeout(created, guint(timeoutSeconds))
        soup_session_set_user_agent(created, "portal-auth-linux/1.0")
        session = created
        return created
    }
}

/// One request in flight; finished exactly once by libsoup's callback.
private final class PendingRequest {
    let message: OpaquePointer
    let host: String
    let continuation: CheckedContinuation<HTTPResponse, Error>

    init(message: OpaquePointer, host: String, continuation: CheckedContinuation<HTTPResponse, Error>) {
        self.message = message
        self.host = host
        self.continuation = continuation
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(message)) }

    func finish(session: UnsafeMutablePointer<SoupSession>, result: OpaquePointer) {
        var error: UnsafeMutablePointer<GError>?
        let bytes = soup_session_send_and_read_finish(session, result, &error)
        if let error {
            continuation.resume(throwing: Self.transportError(error.pointee, host: host))
            g_error_free(error)
            return
        }
        var body = Data()
        if let bytes {
            var size: gsize = 0
            if let data = g_bytes_get_data(bytes, &size), size > 0 {
                body = Data(bytes: data, count: Int(size))
            }
            g_bytes_unref(bytes)
        }
        let status = Int(soup_message_get_status(message).rawValue)
        continuation.resume(returning: HTTPResponse(status: status, headers: responseHeaders(), body: body))
    }

    private func responseHeaders() -> [String: String] {
        let collector = HeaderCollector()
        let box = Unmanaged.passUnretained(collector).toOpaque()
        portal_shim_soup_response_headers_foreach(message, { name, value, userData in
            let collector = Unmanaged<HeaderCollector>.fromOpaque(userData!).takeUnretainedValue()
            collector.add(String(cString: name!), String(cString: value!))
        }, box)
        return collector.headers
    }

    /// The message names the host and what went wrong, never the request's path, headers or body.
    static func transportError(_ error: GError, host: String) -> TransportError {
        var copy = error
        switch portal_shim_transport_error_kind(&copy) {
        case PORTAL_TRANSPORT_ERROR_CANNOT_CONNECT:
            return TransportError(.cannotConnect, message: "Could not connect to \(host). Check that it is running and that you are online, then try again.")
        case PORTAL_TRANSPORT_ERROR_TIMED_OUT:
            return TransportError(.timedOut, message: "\(host) did not answer in time. Try again in a moment.")
        case PORTAL_TRANSPORT_ERROR_CONNECTION_LOST:
            return TransportError(.connectionLost, message: "The connection to \(host) closed before an answer arrived. Try again.")
        case PORTAL_TRANSPORT_ERROR_CANCELLED:
            return TransportError(.cancelled, message: "The request to \(host) was cancelled.")
        default:
            let reason = error.message.map { String(cString: $0) } ?? "unknown error"
            return TransportError(.other, message: "The request to \(host) failed (\(reason)). Try again.")
        }
    }
}

private final class HeaderCollector {
    var headers: [String: String] = [:]

    /// Repeated headers are joined with ", " as HTTP allows (Set-Cookie aside, which the core never reads).
    func add(_ name: String, _ value: String) {
        if let existing = headers[name] {
            headers[name] = existing + ", " + value
        } else {
            headers[name] = value
        }
    }
}
