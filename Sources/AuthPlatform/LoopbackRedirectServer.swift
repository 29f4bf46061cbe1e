import AuthBase
import CAuthPlatform
import FoundationEssentials
import GLibSupport
import PortalAuth
import Synchronization

/// Receives a loopback redirect (RFC 8252 §7.3) over GIO: binds 127.0.0.1:PORT, answers requests
/// with a minimal HTTP/1.1 reader, and stops listening at the first one the sign-in takes. Only a
/// connection from a program of this user counts (`LoopbackPeer`); another user's gets 403.
///
/// The socket is GIO's (`SO_REUSEADDR` only, so a restart finds a port in TIME_WAIT free, never
/// `SO_REUSEPORT`): Linux lets no second socket listen on a port one holds, of this user or any
/// other, and a port another socket holds makes the bind fail instead of sharing it.
public final class LoopbackRedirectServer: LoopbackRedirectListening, Sendable {
    /// The page the browser shows once the redirect arrived: no script, no external resource.
    public struct Page: Sendable {
        public let language: String
        public let title: String
        public let message: String

        public init(language: String, title: String, message: String) {
            self.language = language
            self.title = title
            self.message = message
        }

        public static let english = Page(
            language: "en", title: "Sign-in finished",
            message: "You can close this tab and go back to the app.")
    }

    private let page: Page

    public init(page: Page = .english) {
        self.page = page
    }

    public func listen(
        port: UInt16, classify: @escaping @Sendable (String) -> LoopbackRequestVerdict
    ) async throws
        -> any LoopbackRedirectListener
    {
        let page = self.page
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any LoopbackRedirectListener, any Error>) in
            MainLoopBridge.invoke {
                do {
                    continuation.resume(returning: try LoopbackPort(port: port, page: page, classify: classify))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}

/// One bound port. GIO objects are touched only on the main context; the state is a Mutex so that
/// `redirect()` and `close()` may come from any task.
private final class LoopbackPort: LoopbackRedirectListener, Sendable {
    private enum Phase {
        case listening
        /// The request was taken; its URL is handed over once the page has been written.
        case taken
        case answered(String)
        case closed
    }

    private struct State {
        var phase = Phase.listening
        var waiter: CheckedContinuation<String?, Never>?
    }

    let port: UInt16
    private let page: LoopbackRedirectServer.Page
    private let classify: @Sendable (String) -> LoopbackRequestVerdict
    private let listener: MainContextPointer<UnsafeMutablePointer<GSocketListener>>
    private let cancellable: MainContextPointer<UnsafeMutablePointer<GCancellable>>
    private let state = Mutex(State())

    /// Called on the main context.
    init(port: UInt16, page: LoopbackRedirectServer.Page, classify: @escaping @Sendable (String) -> LoopbackRequestVerdict) throws {
        GIOTypes.register()
        self.port = port
        self.page = page
        self.classify = classify
        let listener = g_socket_listener_new()!
        let loopback = g_inet_address_new_loopback(G_SOCKET_FAMILY_IPV4)
        let address = g_inet_socket_address_new(loopback, port)
        var error: UnsafeMutablePointer<GError>?
        let bound = g_socket_listener_add_address(listener, address, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, nil, nil, &error)
        g_object_unref(address)
        g_object_unref(loopback)
        guard bound != 0 else {
            g_object_unref(listener)
            let failure = GLibError.take(&error)
            if failure?.matches(g_io_error_quark(), G_IO_ERROR_ADDRESS_IN_USE) == true {
                throw LoopbackListenError.portInUse(port: port)
            }
            throw LoopbackListenError.cannotListen(port: port, reason: failure?.message ?? "")
        }
        self.listener = MainContextPointer(listener)
        cancellable = MainContextPointer(g_cancellable_new()!)
        acceptNext()
    }

    deinit {
        let listener = self.listener
        let cancellable = self.cancellable
        MainLoopBridge.invoke {
            g_socket_listener_close(listener.pointer)
            g_object_unref(listener.pointer)
            g_object_unref(cancellable.pointer)
        }
    }

    func redirect() async -> String? {
        await withCheckedContinuation { continuation in
            let ready: String?? = state.withLock { state in
                switch state.phase {
                case .answered(let url): return .some(url)
                case .closed: return .some(nil)
                case .listening, .taken:
                    state.waiter = continuation
                    return nil
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    func close() {
        let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
            switch state.phase {
            case .listening, .taken:
                state.phase = .closed
                defer { state.waiter = nil }
                return state.waiter
            case .answered, .closed:
                return nil
            }
        }
        stopListening()
        waiter?.resume(returning: nil)
    }

    /// Closes the listening socket: a later connection is refused by the kernel. Called off the main
    /// context the work waits there, and `deinit` may run first: the references taken here keep the
    /// listener and the cancellable alive until it is done.
    private func stopListening() {
        let listener = self.listener
        let cancellable = self.cancellable
        g_object_ref(listener.pointer)
        g_object_ref(cancellable.pointer)
        MainLoopBridge.invoke {
            g_cancellable_cancel(cancellable.pointer)
            g_socket_listener_close(listener.pointer)
            g_object_unref(listener.pointer)
            g_object_unref(cancellable.pointer)
        }
    }

    // MARK: - Accepting (main context)

    private func acceptNext() {
        let box = Unmanaged.passRetained(self).toOpaque()
        g_socket_listener_accept_async(
            listener.pointer, cancellable.pointer,
            { _, result, userData in
                let port = Unmanaged<LoopbackPort>.fromOpaque(userData!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let connection = g_socket_listener_accept_finish(port.listener.pointer, result, nil, &error)
                let failure = GLibError.take(&error)
                if let connection {
                    port.serve(connection)
                }
                let listening = port.state.withLock { if case .listening = $0.phase { true } else { false } }
                // A failed accept (a connection reset before it was taken) does not end the wait.
                if listening, connection != nil || failure?.matches(g_io_error_quark(), G_IO_ERROR_CANCELLED) == false {
                    port.acceptNext()
                }
            }, box)
    }

    private func serve(_ connection: UnsafeMutablePointer<GSocketConnection>) {
        // A client that connects and says nothing does not hold its connection for long.
        g_socket_set_timeout(g_socket_connection_get_socket(connection), 10)
        let fromThisUser = Self.peerPort(of: connection).map { LoopbackPeer.isThisUser(peerPort: $0, localPort: port) } ?? false
        LoopbackConnection(connection, port: self, fromThisUser: fromThisUser).readMore()
    }

    private static func peerPort(of connection: UnsafeMutablePointer<GSocketConnection>) -> UInt16? {
        var error: UnsafeMutablePointer<GError>?
        guard let address = g_socket_connection_get_remote_address(connection, &error) else {
            _ = GLibError.take(&error)
            return nil
        }
        defer { g_object_unref(address) }
        guard g_socket_address_get_family(address) == G_SOCKET_FAMILY_IPV4 else { return nil }
        return g_inet_socket_address_get_port(UnsafeMutablePointer<GInetSocketAddress>(OpaquePointer(address)))
    }

    /// Decides what a complete request gets; called once per connection, on the main context.
    fileprivate func answer(_ request: LoopbackHTTPRequest?, fromThisUser: Bool) -> (response: [UInt8], taken: String?) {
        // Another user's program may know the port; what it sends is never this user's sign-in.
        guard fromThisUser else {
            return (Self.response(403, "Forbidden", plain: "This request came from another user's program."), nil)
        }
        guard let request else { return (Self.response(400, "Bad Request", plain: "Bad request."), nil) }
        guard request.target.hasPrefix("/") else { return (Self.response(400, "Bad Request", plain: "Bad request."), nil) }
        let url = "http://127.0.0.1:\(port)" + request.target
        let isListening = state.withLock { if case .listening = $0.phase { true } else { false } }
        let verdict = isListening ? classify(url) : .notFound
        switch verdict {
        case .notFound:
            return (Self.response(404, "Not Found", plain: "Not found."), nil)
        case .notASignIn:
            return (Self.response(400, "Bad Request", plain: "This is not a sign-in result for this app."), nil)
        case .take:
            guard request.method == "GET" else {
                return (Self.response(405, "Method Not Allowed", plain: "Method not allowed.", extra: "Allow: GET\r\n"), nil)
            }
            let took = state.withLock { state -> Bool in
                guard case .listening = state.phase else { return false }
                state.phase = .taken
                return true
            }
            guard took else { return (Self.response(404, "Not Found", plain: "Not found."), nil) }
            stopListening()
            return (Self.response(200, "OK", html: pageHTML), url)
        }
    }

    /// The taken request's page was written (or the browser left): the sign-in may go on.
    fileprivate func handOver(_ url: String) {
        let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
            guard case .taken = state.phase else { return nil }
            state.phase = .answered(url)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: url)
    }

    private var pageHTML: String {
        let title = HTMLText.escaped(page.title)
        let message = HTMLText.escaped(page.message)
        return """
            <!DOCTYPE html>
            <html lang="\(HTMLText.escaped(page.language))"><head><meta charset="utf-8"><title>\(title)</title>
            <meta name="viewport" content="width=device-width"></head>
            <body style="font-family: sans-serif; margin: 4em auto; max-width: 32em; text-align: center">
            <h1>\(title)</h1><p>\(message)</p></body></html>

            """
    }

    private static func response(_ status: Int, _ reason: String, plain: String, extra: String = "") -> [UInt8] {
        response(status, reason, body: plain + "\n", type: "text/plain; charset=utf-8", extra: extra)
    }

    private static func response(_ status: Int, _ reason: String, html: String) -> [UInt8] {
        response(status, reason, body: html, type: "text/html; charset=utf-8", extra: "")
    }

    /// The page's own URL carries the grant: it must not travel on as a referrer or stay in a cache.
    private static func response(_ status: Int, _ reason: String, body: String, type: String, extra: String) -> [UInt8] {
        let bytes = Array(body.utf8)
        let head =
            "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(type)\r\nContent-Length: \(bytes.count)\r\n"
            + "Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\nContent-Security-Policy: default-src 'none'; style-src 'unsafe-inline'\r\n"
            + "X-Content-Type-Options: nosniff\r\n" + extra + "Connection: close\r\n\r\n"
        return Array(head.utf8) + bytes
    }
}

/// The request line of an HTTP/1.x request: enough to route it.
private struct LoopbackHTTPRequest {
    let method: String
    let target: String

    /// The head up to its blank line, or nil when it is not HTTP/1.x.
    init?(head: [UInt8]) {
        guard let lineEnd = head.firstIndex(of: UInt8(ascii: "\r")) ?? head.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let parts = head[..<lineEnd].split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].starts(with: Array("HTTP/1.".utf8)),
            parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return nil }
        method = String(decoding: parts[0], as: UTF8.self)
        target = String(decoding: parts[1], as: UTF8.self)
    }
}

/// One accepted connection: reads the request head, writes the answer, closes. Lives (retained by its
/// pending GIO call) until the connection is closed.
private final class LoopbackConnection {
    /// A request head larger than this is not a redirect (Portal's are far below 8 KiB).
    static let maxHead = 16 * 1024

    private let connection: UnsafeMutablePointer<GSocketConnection>
    private let port: LoopbackPort
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 1)
    private var head: [UInt8] = []
    /// The answer, kept in memory of its own while GIO writes it.
    private var response: UnsafeMutableRawBufferPointer?
    private var taken: String?
    private let fromThisUser: Bool

    init(_ connection: UnsafeMutablePointer<GSocketConnection>, port: LoopbackPort, fromThisUser: Bool) {
        self.connection = connection
        self.port = port
        self.fromThisUser = fromThisUser
    }

    deinit {
        buffer.deallocate()
        response?.deallocate()
        g_object_unref(connection)
    }

    private var stream: UnsafeMutablePointer<GIOStream> {
        UnsafeMutableRawPointer(connection).assumingMemoryBound(to: GIOStream.self)
    }

    func readMore() {
        let box = Unmanaged.passRetained(self).toOpaque()
        g_input_stream_read_async(
            g_io_stream_get_input_stream(stream), buffer, 4096, G_PRIORITY_DEFAULT, nil,
            { _, result, userData in
                let connection = Unmanaged<LoopbackConnection>.fromOpaque(userData!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let count = g_input_stream_read_finish(g_io_stream_get_input_stream(connection.stream), result, &error)
                _ = GLibError.take(&error)
                connection.received(count)
            }, box)
    }

    private func received(_ count: Int) {
        guard count > 0 else { return finish(complete: false) } // closed, reset or timed out before a full head
        head += UnsafeRawBufferPointer(start: buffer, count: count)
        if head.count > Self.maxHead { return finish(complete: true) }
        let terminator: [UInt8] = [13, 10, 13, 10]
        if head.count >= 4, (0...(head.count - 4)).contains(where: { head[$0..<($0 + 4)].elementsEqual(terminator) }) {
            return finish(complete: true)
        }
        readMore()
    }

    private func finish(complete: Bool) {
        guard complete else { return close() }
        let request = head.count > Self.maxHead ? nil : LoopbackHTTPRequest(head: head)
        let answer = port.answer(request, fromThisUser: fromThisUser)
        taken = answer.taken
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: answer.response.count, alignment: 1)
        answer.response.withUnsafeBytes { bytes.copyMemory(from: $0) }
        response = bytes
        let box = Unmanaged.passRetained(self).toOpaque()
        g_output_stream_write_all_async(
            g_io_stream_get_output_stream(stream), bytes.baseAddress, gsize(bytes.count),
            G_PRIORITY_DEFAULT, nil,
            { _, result, userData in
                let connection = Unmanaged<LoopbackConnection>.fromOpaque(userData!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                _ = g_output_stream_write_all_finish(g_io_stream_get_output_stream(connection.stream), result, nil, &error)
                _ = GLibError.take(&error)
                connection.close()
            }, box)
    }

    private func close() {
        g_io_stream_close(stream, nil, nil)
        if let taken { port.handOver(taken) }
    }
}
