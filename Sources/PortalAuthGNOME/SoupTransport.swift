import CAuthPlatform
import FoundationEssentials
import GLibSupport
import PortalAuth
import Synchronization

/// `HTTPTransport` on libsoup-3. Every libsoup call runs on GLib's global default main context
/// (see `MainLoopBridge`), which must be iterated while a request is in flight.
///
/// Redirects are not followed: the caller sees a 3xx with its `Location`. Requests that carry a body
/// go out on a fresh connection, so libsoup never silently re-sends one (a grant must not be sent twice)
/// after a kept-alive connection turns out to be closed.
///
/// Bounded: each request has one deadline for all of it (connect, TLS, send, wait, read), not only
/// per read, and an answer larger than `maxResponseBytes` is refused without being read to its end.
/// Certificates must chain to the system's CAs or to the configured extra CA file; verification is
/// never switched off, and a request whose connection failed verification sends nothing.
///
/// Proxies: requests to this machine (`localhost`, `127.0.0.1`, `::1`) go direct; every other host
/// goes through the desktop's proxy settings (GIO's default `GProxyResolver`: GNOME's settings,
/// libproxy, `http_proxy`/`https_proxy`/`no_proxy`). A proxy could not reach this machine's loopback
/// anyway, and asking the default resolver costs a short process ~5 ms: it loads GIO's proxy modules
/// (libproxy, the GNOME one, dconf) and reads the settings over D-Bus (docs/PERFORMANCE.md).
public final class SoupTransport: HTTPTransport, Sendable {
    /// The CA file, time limit and size limit this transport uses.
    public let configuration: TransportConfiguration
    /// Seconds the whole request may take before `timedOut`.
    public var timeoutSeconds: UInt32 { configuration.timeoutSeconds }
    /// Created on first use, on the main context, and only touched there: one for loopback hosts
    /// (no proxy resolver), one for all others (the default one).
    private let sessions = Mutex<[Route: MainContextPointer<UnsafeMutablePointer<SoupSession>>]>([:])
    /// The extra CA file, loaded on first use (on the main context): the database or why it failed.
    private let extraAuthorities = Mutex<ExtraAuthorities?>(nil)

    private enum Route { case direct, desktopProxy }

    /// A transport with the system's CAs only, and `timeoutSeconds` for each request.
    public convenience init(timeoutSeconds: UInt32 = TransportConfiguration.defaultTimeoutSeconds) {
        self.init(configuration: TransportConfiguration(timeoutSeconds: timeoutSeconds))
    }

    /// A transport as `configuration` says (see `TransportConfiguration.resolve`).
    public init(configuration: TransportConfiguration) {
        self.configuration = configuration
    }

    deinit {
        for session in sessions.withLock({ Array($0.values) }) {
            MainLoopBridge.invoke { g_object_unref(session.pointer) }
        }
        if case .loaded(let database)? = extraAuthorities.withLock({ $0 }) {
            MainLoopBridge.invoke { g_object_unref(database.pointer) }
        }
    }

    /// Sends `request` with libsoup on GLib's main context, through the desktop's proxy settings
    /// (never for loopback hosts), and returns the response whatever its status. Cancelling the
    /// calling task cancels the request.
    /// - Throws: `TransportError` when no response arrived.
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
    private func start(
        _ request: HTTPRequest, cancellable: Cancellable,
        continuation: CheckedContinuation<HTTPResponse, any Error>
    ) {
        let host = request.url.host ?? "the server"
        let port = request.url.port ?? (request.url.scheme?.lowercased() == "https" ? 443 : 80)
        let address = TransportErrors.address(host: host, port: port)
        let authorities: UnsafeMutablePointer<GTlsDatabase>?
        switch loadExtraAuthorities() {
        case .failed(let detail):
            continuation.resume(throwing: TransportError(.caFileUnreadable, host: address, detail: detail))
            return
        case .loaded(let database): authorities = database.pointer
        case nil: authorities = nil
        }
        guard let message = libsoup.soup_message_new(request.method, request.url.absoluteString) else {
            continuation.resume(throwing: TransportError(.invalidRequest, host: address))
            return
        }
        let headers = libsoup.soup_message_get_request_headers(message)
        for (name, value) in request.headers {
            libsoup.soup_message_headers_replace(headers, name, value)
        }
        var flags = SOUP_MESSAGE_NO_REDIRECT
        if let body = request.body {
            let bytes = body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            libsoup.soup_message_set_request_body_from_bytes(message, nil, bytes)
            g_bytes_unref(bytes)
            flags |= SOUP_MESSAGE_NEW_CONNECTION
        }
        libsoup.soup_message_set_flags(message, flags)

        let pending = PendingRequest(
            message: message, host: host, port: port, authorities: authorities,
            maxResponseBytes: configuration.maxResponseBytes, cancellable: cancellable,
            continuation: continuation)
        pending.watchCertificate()
        pending.startDeadline(seconds: configuration.timeoutSeconds)
        let route: Route = request.url.host.map(URLPolicy.isLoopbackHost) == true ? .direct : .desktopProxy
        libsoup.soup_session_send_async(
            session(for: route), message, G_PRIORITY_DEFAULT, cancellable.pointer,
            { source, result, userData in
                let pending = Unmanaged<PendingRequest>.fromOpaque(userData!).takeRetainedValue()
                pending.sent(session: UnsafeMutableRawPointer(source!).assumingMemoryBound(to: SoupSession.self), result: result!)
            }, Unmanaged.passRetained(pending).toOpaque())
    }

    /// Runs on the main context.
    private func session(for route: Route) -> UnsafeMutablePointer<SoupSession> {
        sessions.withLock { sessions in
            if let existing = sessions[route] { return existing.pointer }
            GIOTypes.register() // before libsoup's resolver threads start
            let created = libsoup.soup_session_new()!
            // Per read or write; the deadline covers the whole request.
            libsoup.soup_session_set_timeout(created, guint(configuration.timeoutSeconds))
            libsoup.soup_session_set_user_agent(created, "portal-auth-linux/\(ProductVersion.current)")
            // NULL means no proxy at all; left unset, libsoup asks g_proxy_resolver_get_default().
            if route == .direct { libsoup.soup_session_set_proxy_resolver(created, nil) }
            sessions[route] = MainContextPointer(created)
            return created
        }
    }

    /// Runs on the main context. nil without a CA file.
    private func loadExtraAuthorities() -> ExtraAuthorities? {
        guard let path = configuration.caFile else { return nil }
        return extraAuthorities.withLock { slot in
            if let loaded = slot { return loaded }
            var error: UnsafeMutablePointer<GError>?
            let database = g_tls_file_database_new(path, &error)
            let loaded: ExtraAuthorities
            if let failure = GLibError.take(&error) {
                loaded = .failed("\(path): \(failure.message)")
            } else if let database {
                loaded = .loaded(MainContextPointer(database))
            } else {
                loaded = .failed("\(path): no certificates")
            }
            slot = loaded
            return loaded
        }
    }
}

/// The configured extra CA file: a GTlsDatabase holding its certificates, or why it could not be read.
private enum ExtraAuthorities {
    case loaded(MainContextPointer<UnsafeMutablePointer<GTlsDatabase>>)
    case failed(String)
}

extension SignalName {
    /// SoupMessage's: the server's certificate failed the system's checks (arguments: the
    /// `GTlsCertificate` and its `GTlsCertificateFlags`); a handler returning true accepts it.
    fileprivate static let acceptCertificate = SignalName("accept-certificate")
}

/// Owns a GCancellable; GCancellable itself is thread-safe.
final class Cancellable: @unchecked Sendable {
    let pointer = g_cancellable_new()!
    func cancel() { g_cancellable_cancel(pointer) }
    deinit { g_object_unref(pointer) }
}

/// One request in flight, on the main context: sent, then its body read chunk by chunk, then
/// finished exactly once (answer, error, deadline or size limit, whichever comes first).
private final class PendingRequest {
    let message: OpaquePointer
    let host: String
    let port: Int
    let authorities: UnsafeMutablePointer<GTlsDatabase>?
    let maxResponseBytes: Int
    let cancellable: Cancellable
    private var continuation: CheckedContinuation<HTTPResponse, any Error>?
    private var deadlineSource: guint = 0
    private var stream: UnsafeMutablePointer<GInputStream>?
    private var body = Data()
    /// Why it stopped, when it was this side that stopped it (cancelling the GCancellable).
    private var stoppedBecause: TransportError.Kind?
    /// What was wrong with the server's certificate, in words, when the handshake refused it.
    private var certificateProblem: String?

    static let chunkBytes = 16 * 1024

    /// `HOST:PORT`, as errors name the server: which of several local services did not answer is
    /// in the port.
    var address: String { TransportErrors.address(host: host, port: port) }

    init(
        message: OpaquePointer, host: String, port: Int, authorities: UnsafeMutablePointer<GTlsDatabase>?, maxResponseBytes: Int,
        cancellable: Cancellable, continuation: CheckedContinuation<HTTPResponse, any Error>
    ) {
        self.message = message
        self.host = host
        self.port = port
        self.authorities = authorities
        self.maxResponseBytes = maxResponseBytes
        self.cancellable = cancellable
        self.continuation = continuation
    }

    deinit {
        if let stream { g_object_unref(stream) }
        g_object_unref(UnsafeMutableRawPointer(message))
    }

    /// One timer for the whole request: when it fires, everything still running is cancelled.
    func startDeadline(seconds: UInt32) {
        let retained = Unmanaged.passRetained(self).toOpaque()
        deadlineSource = g_timeout_add_full(
            G_PRIORITY_DEFAULT, guint(min(seconds, UInt32.max / 1000)) * 1000,
            { userData in
                let pending = Unmanaged<PendingRequest>.fromOpaque(userData!).takeUnretainedValue()
                pending.deadlineSource = 0
                pending.stop(because: .timedOut)
                return gboolean(0) // G_SOURCE_REMOVE
            }, retained,
            { userData in
                Unmanaged<PendingRequest>.fromOpaque(userData!).release()
            })
    }

    /// libsoup asks only when the system's CAs refused the certificate: it is accepted if the extra
    /// CA file vouches for it completely (chain, dates and host name). Either way the reason is kept.
    func watchCertificate() {
        // Connected for the message's life, which this object owns.
        _ = SignalConnection(instance: UnsafeMutableRawPointer(message), signal: .acceptCertificate) { [weak self] arguments in
            self?.acceptCertificate(
                arguments.pointer(0)?.assumingMemoryBound(to: GTlsCertificate.self),
                systemErrors: GTlsCertificateFlags(rawValue: arguments.uint(1))) ?? false
        }
    }

    private func acceptCertificate(_ certificate: UnsafeMutablePointer<GTlsCertificate>?, systemErrors: GTlsCertificateFlags) -> Bool {
        guard let authorities, let certificate else {
            certificateProblem = Self.describe(systemErrors)
            return false
        }
        let identity = g_network_address_new(host, guint16(clamping: port))
        defer { g_object_unref(UnsafeMutableRawPointer(identity)) }
        var error: UnsafeMutablePointer<GError>?
        let flags = g_tls_database_verify_chain(
            authorities, certificate, G_TLS_DATABASE_PURPOSE_AUTHENTICATE_SERVER,
            identity, nil, G_TLS_DATABASE_VERIFY_NONE, nil, &error)
        if let failure = GLibError.take(&error) {
            certificateProblem = failure.message
            return false
        }
        guard flags.rawValue == 0 else {
            certificateProblem = Self.describe(flags)
            return false
        }
        return true
    }

    static func describe(_ flags: GTlsCertificateFlags) -> String {
        let reasons: [(GTlsCertificateFlags, String)] = [
            (G_TLS_CERTIFICATE_UNKNOWN_CA, "signed by an unknown certificate authority"),
            (G_TLS_CERTIFICATE_BAD_IDENTITY, "issued for another host name"),
            (G_TLS_CERTIFICATE_EXPIRED, "expired"),
            (G_TLS_CERTIFICATE_NOT_ACTIVATED, "not valid yet"),
            (G_TLS_CERTIFICATE_REVOKED, "revoked"),
            (G_TLS_CERTIFICATE_INSECURE, "made with an insecure algorithm")
        ]
        let found = reasons.filter { flags.rawValue & $0.0.rawValue != 0 }.map(\.1)
        return "certificate " + (found.isEmpty ? "could not be verified" : found.joined(separator: ", "))
    }

    /// Cancels whatever is running; its callback then reports `reason`.
    private func stop(because reason: TransportError.Kind) {
        guard continuation != nil, stoppedBecause == nil else { return }
        stoppedBecause = reason
        cancellable.cancel()
    }

    func sent(session: UnsafeMutablePointer<SoupSession>, result: OpaquePointer) {
        var error: UnsafeMutablePointer<GError>?
        let opened = libsoup.soup_session_send_finish(session, result, &error)
        if let failure = GLibError.take(&error) {
            if let opened { g_object_unref(opened) }
            fail(failure)
            return
        }
        stream = opened
        if let declared = Int(exactly: libsoup.soup_message_headers_get_content_length(libsoup.soup_message_get_response_headers(message))),
            declared > maxResponseBytes
        {
            finish(.failure(TransportError(.responseTooLarge, host: address, detail: "\(declared) bytes declared")))
            return
        }
        readNextChunk()
    }

    private func readNextChunk() {
        guard let stream else { return }
        g_input_stream_read_bytes_async(
            stream, gsize(Self.chunkBytes), G_PRIORITY_DEFAULT, cancellable.pointer,
            { source, result, userData in
                let pending = Unmanaged<PendingRequest>.fromOpaque(userData!).takeRetainedValue()
                pending.read(result: result!)
            }, Unmanaged.passRetained(self).toOpaque())
    }

    private func read(result: OpaquePointer) {
        var error: UnsafeMutablePointer<GError>?
        let bytes = g_input_stream_read_bytes_finish(stream, result, &error)
        if let failure = GLibError.take(&error) {
            if let bytes { g_bytes_unref(bytes) }
            fail(failure)
            return
        }
        var size: gsize = 0
        if let bytes {
            if let data = g_bytes_get_data(bytes, &size), size > 0 { body.append(Data(bytes: data, count: Int(size))) }
            g_bytes_unref(bytes)
        }
        if size == 0 {
            g_input_stream_close(stream, nil, nil)
            let status = Int(libsoup.soup_message_get_status(message))
            finish(.success(HTTPResponse(status: status, headers: responseHeaders(), body: body)))
        } else if body.count > maxResponseBytes {
            // The rest is never read: releasing the stream closes the connection.
            finish(.failure(TransportError(.responseTooLarge, host: address, detail: "more than \(maxResponseBytes) bytes")))
        } else {
            readNextChunk()
        }
    }

    private func fail(_ failure: GLibError) {
        let error: TransportError
        if let reason = stoppedBecause, failure.matches(g_io_error_quark(), G_IO_ERROR_CANCELLED) {
            error = TransportError(reason, host: address, detail: reason == .timedOut ? "no complete answer in time" : "")
        } else {
            error = TransportErrors.classify(failure, host: address, certificateProblem: certificateProblem)
        }
        finish(.failure(error))
    }

    private func finish(_ result: Result<HTTPResponse, any Error>) {
        guard let continuation else { return }
        self.continuation = nil
        if deadlineSource != 0 {
            g_source_remove(deadlineSource)
            deadlineSource = 0
        }
        continuation.resume(with: result)
    }

    private func responseHeaders() -> [String: String] {
        SoupHeaders.fields(of: libsoup.soup_message_get_response_headers(message))
    }
}

/// Which `TransportError` a GLib/libsoup failure is: policy, so it lives in Swift.
enum TransportErrors {
    /// `HOST:PORT`, an IPv6 host in brackets.
    static func address(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    static func classify(_ error: GLibError, host: String, certificateProblem: String? = nil) -> TransportError {
        let kind: TransportError.Kind
        var detail = error.message
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
            if error.code == Int32(G_TLS_ERROR_BAD_CERTIFICATE.rawValue) {
                kind = .untrustedCertificate
                detail = certificateProblem ?? error.message
            } else {
                kind = .other
            }
        } else {
            kind = .other
        }
        return TransportError(kind, host: host, detail: detail)
    }
}
