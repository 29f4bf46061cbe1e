import CPortalPlatform
import FoundationEssentials
import PortalAuth
import Synchronization

/// `HTTPTransport` on libsoup-3. Every libsoup call runs on GLib's global default main context
/// (see `MainLoopBridge`), which must be iterated while a request is in flight.
///
/// Redirects are not followed: the caller sees a 3xx with its `Location`. Requests that carry a body
/// go out on a fresh connection, so libsoup never silently re-sends one (a grant must not be sent twice)
/// after a kept-alive connection turns out to be closed.
///
/// Proxies: requests to this machine (`localhost`, `127.0.0.1`, `::1`) go direct; every other host
/// goes through the desktop's proxy settings (GIO's default `GProxyResolver`: GNOME's settings,
/// libproxy, `http_proxy`/`https_proxy`/`no_proxy`). A proxy could not reach this machine's loopback
/// anyway, and asking the default resolver costs a short process ~5 ms: it loads GIO's proxy modules
/// (libproxy, the GNOME one, dconf) and reads the settings over D-Bus (docs/PERFORMANCE.md).
public final class SoupTransport: HTTPTransport, Sendable {
    /// Seconds a connection may stay silent (connect, send or wait for the response) before `timedOut`.
    public let timeoutSeconds: UInt32
    /// Created on first use, on the main context, and only touched there: one for loopback hosts
    /// (no proxy resolver), one for all others (the default one).
    private let sessions = Mutex<[Route: MainContextPointer<UnsafeMutablePointer<SoupSession>>]>([:])

    private enum Route { case direct, desktopProxy }

    public init(timeoutSeconds: UInt32 = 30) {
        self.timeoutSeconds = timeoutSeconds
    }

    deinit {
        for session in sessions.withLock({ Array($0.values) }) {
            MainLoopBridge.invoke { g_object_unref(session.pointer) }
        }
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let cancellable = Cancellable()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                MainLoopBridge.invoke {
                    self.start(request, cancellable: cancellable, continuation: continuation)
                }
            }
        } onCancel: {
            // Cancel on the main context too, so libsoup sees it on its own thread.
            MainLoopBridge.invoke { cancellable.cancel() }
        }
    }

    /// Runs on the main context.
    private func start(_ request: HTTPRequest, cancellable: Cancellable,
                       continuation: CheckedContinuation<HTTPResponse, any Error>) {
        let host = request.url.host ?? "the server"
        guard let message = soup_message_new(request.method, request.url.absoluteString) else {
            continuation.resume(throwing: TransportError(.invalidRequest, host: host))
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

        let pending = PendingRequest(message: message, host: host, continuation: continuation)
        let route: Route = request.url.host.map(URLPolicy.isLoopbackHost) == true ? .direct : .desktopProxy
        soup_session_send_and_read_async(session(for: route), message, G_PRIORITY_DEFAULT, cancellable.pointer, { source, result, userData in
            let pending = Unmanaged<PendingRequest>.fromOpaque(userData!).takeRetainedValue()
            pending.finish(session: UnsafeMutableRawPointer(source!).assumingMemoryBound(to: SoupSession.self), result: result!)
        }, Unmanaged.passRetained(pending).toOpaque())
    }

    /// Runs on the main context.
    private func session(for route: Route) -> UnsafeMutablePointer<SoupSession> {
        sessions.withLock { sessions in
            if let existing = sessions[route] { return existing.pointer }
            let created = soup_session_new()!
            soup_session_set_timeout(created, guint(timeoutSeconds))
            soup_session_set_user_agent(created, "portal-auth-linux/\(ProductVersion.current)")
            // NULL means no proxy at all; left unset, libsoup asks g_proxy_resolver_get_default().
            if route == .direct { soup_session_set_proxy_resolver(created, nil) }
            sessions[route] = MainContextPointer(created)
            return created
        }
    }
}

/// Owns a GCancellable; GCancellable itself is thread-safe.
final class Cancellable: @unchecked Sendable {
    let pointer = g_cancellable_new()!
    func cancel() { g_cancellable_cancel(pointer) }
    deinit { g_object_unref(pointer) }
}

/// One request in flight; finished exactly once by libsoup's callback on the main context.
private final class PendingRequest {
    let message: OpaquePointer
    let host: String
    let continuation: CheckedContinuation<HTTPResponse, any Error>

    init(message: OpaquePointer, host: String, continuation: CheckedContinuation<HTTPResponse, any Error>) {
        self.message = message
        self.host = host
        self.continuation = continuation
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(message)) }

    func finish(session: UnsafeMutablePointer<SoupSession>, result: OpaquePointer) {
        var error: UnsafeMutablePointer<GError>?
        let bytes = soup_session_send_and_read_finish(session, result, &error)
        if let failure = GLibError.take(&error) {
            continuation.resume(throwing: TransportErrors.classify(failure, host: host))
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

    /// Repeated headers are joined with ", " as HTTP allows (Set-Cookie aside, which no core reads).
    private func responseHeaders() -> [String: String] {
        var headers: [String: String] = [:]
        var iterator = SoupMessageHeadersIter()
        soup_message_headers_iter_init(&iterator, soup_message_get_response_headers(message))
        var name: UnsafePointer<CChar>?
        var value: UnsafePointer<CChar>?
        while soup_message_headers_iter_next(&iterator, &name, &value) != 0 {
            guard let name, let value else { continue }
            let key = String(cString: name), text = String(cString: value)
            headers[key] = headers[key].map { $0 + ", " + text } ?? text
        }
        return headers
    }
}

/// Which `TransportError` a GLib/libsoup failure is: policy, so it lives in Swift.
enum TransportErrors {
    static func classify(_ error: GLibError, host: String) -> TransportError {
        let kind: TransportError.Kind
        if error.domain == g_io_error_quark() {
            switch GIOErrorEnum(rawValue: UInt32(error.code)) {
            case G_IO_ERROR_CANCELLED: kind = .cancelled
            case G_IO_ERROR_TIMED_OUT: kind = .timedOut
            case G_IO_ERROR_CONNECTION_REFUSED, G_IO_ERROR_HOST_NOT_FOUND, G_IO_ERROR_HOST_UNREACHABLE,
                 G_IO_ERROR_NETWORK_UNREACHABLE, G_IO_ERROR_PROXY_FAILED, G_IO_ERROR_PROXY_NOT_ALLOWED:
                kind = .cannotConnect
            case G_IO_ERROR_PARTIAL_INPUT, G_IO_ERROR_CONNECTION_CLOSED, G_IO_ERROR_NOT_CONNECTED, G_IO_ERROR_BROKEN_PIPE:
                kind = .connectionLost
            default: kind = .other
            }
        } else if error.domain == g_resolver_error_quark() {
            kind = .cannotConnect
        } else if error.domain == g_tls_error_quark() {
            kind = error.code == Int32(G_TLS_ERROR_BAD_CERTIFICATE.rawValue) ? .untrustedCertificate : .other
        } else {
            kind = .other
        }
        return TransportError(kind, host: host, detail: error.message)
    }
}
