import AuthBase
import CAuthPlatform
import FoundationEssentials
import GLibSupport
import PortalAuth
import Synchronization

/// Receives a loopback redirect (RFC 8252 §7.3) over GIO: binds 127.0.0.1:PORT (or any free port for
/// port 0), answers requests with a minimal HTTP/1.1 reader, and hands the first one the sign-in takes
/// to its wait. Only a connection from a program of this user counts (`LoopbackPeer`), checked when
/// it is accepted: another user's is closed before a byte of it is read.
///
/// A port outlives its sign-in: once the wait ends (taken, cancelled, closed) the port stays bound for
/// `holdingPortFor` and answers every late request with a "this sign-in has ended" page, never taking
/// it. The provider's tab can still finish after a cancel (Portal's OAuth state lives 15 minutes, its
/// grant has no PKCE): were the port free, another user's program could bind it and redeem the grant.
/// A new sign-in on the same port takes the held port back. Only the process's exit frees it early.
///
/// The socket is GIO's (`SO_REUSEADDR` only, so a restart finds a port in TIME_WAIT free, never
/// `SO_REUSEPORT`): Linux lets no second socket listen on a port one holds, of this user or any
/// other, and a port another socket holds makes the bind fail instead of sharing it.
public final class LoopbackRedirectServer: LoopbackRedirectListening, Sendable {
    /// The pages the browser shows: the redirect arrived, or it came after its sign-in ended. No
    /// script, no external resource.
    public struct Page: Sendable {
        /// The pages' language (`<html lang>`), a BCP 47 tag such as `en` or `de`.
        public let language: String
        /// The title of the page shown when the sign-in took the redirect.
        public let title: String
        /// The text of that page: the person can go back to the app.
        public let message: String
        /// The title of the page shown for a redirect that came after its sign-in ended.
        public let endedTitle: String
        /// The text of that page: nothing was signed in.
        public let endedMessage: String

        /// Pages in the app's language; the text is escaped, never read as HTML.
        public init(language: String, title: String, message: String, endedTitle: String, endedMessage: String) {
            self.language = language
            self.title = title
            self.message = message
            self.endedTitle = endedTitle
            self.endedMessage = endedMessage
        }

        /// The pages in English, the default.
        public static let english = Page(
            language: "en", title: "Sign-in finished",
            message: "You can close this tab and go back to the app.",
            endedTitle: "Sign-in ended",
            endedMessage: "The app is no longer waiting for this sign-in, so nothing was signed in. "
                + "You can close this tab and start again from the app.")
    }

    private let page: Page

    /// A listener whose browser pages are `page`.
    public init(page: Page = .english) {
        self.page = page
    }

    /// Binds 127.0.0.1:`port` (any free port for 0) and returns the wait for the sign-in's request; see
    /// `LoopbackRedirectListening.listen(port:holdingPortFor:classify:)`.
    /// - Throws: `LoopbackListenError` (`.portInUse` when another socket holds the port).
    public func listen(
        port: UInt16, holdingPortFor hold: Duration, classify: @escaping @Sendable (String) -> LoopbackRequestVerdict
    ) async throws
        -> any LoopbackRedirectListener
    {
        let page = self.page
        return try await MainLoopBridge.value { try LoopbackPort.wait(on: port, page: page, hold: hold, classify: classify) }
    }

    /// The ports this process holds for ended sign-ins, with when each is let go. For a program that
    /// is about to exit (the CLI on Ctrl+C): once it exits, a held port is anybody's again.
    package static func heldPorts() async -> [UInt16: ContinuousClock.Instant] {
        (try? await MainLoopBridge.value { LoopbackPort.heldPorts() }) ?? [:]
    }
}

/// One sign-in's wait on a port: what `listen` returns. Sendable; its state is a Mutex, and whatever
/// concerns the socket is done on the main context by the port.
final class LoopbackWait: LoopbackRedirectListener, Sendable {
    private enum Phase {
        case waiting(CheckedContinuation<String?, any Error>?)
        case answered(String)
        case failed(LoopbackListenError)
        case ended
    }

    let port: UInt16
    private let phase = Mutex(Phase.waiting(nil))
    /// Tells the port (on the main context) that this wait ended.
    private let onEnd: @Sendable (LoopbackWait) -> Void

    fileprivate init(
        port: UInt16, onEnd: @escaping @Sendable (LoopbackWait) -> Void
    ) {
        self.port = port
        self.onEnd = onEnd
    }

    func redirect() async throws -> String? {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<String?, any Error>? = phase.withLock { phase in
                switch phase {
                case .answered(let url): return .success(url)
                case .failed(let error): return .failure(error)
                case .ended: return .success(nil)
                case .waiting:
                    phase = .waiting(continuation)
                    return nil
                }
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    func close() {
        guard let waiter = finish(.ended) else { return }
        onEnd(self)
        waiter?.resume(returning: nil)
    }

    /// From the port, on the main context: the taken request's page was written.
    fileprivate func deliver(_ url: String) {
        finish(.answered(url))??.resume(returning: url)
    }

    /// From the port, on the main context: connections cannot be accepted.
    fileprivate func fail(_ error: LoopbackListenError) {
        finish(.failed(error))??.resume(throwing: error)
    }

    /// Moves a waiting wait to `outcome`: the continuation to resume (itself optional), or nil when
    /// the wait had already ended.
    private func finish(_ outcome: Phase) -> CheckedContinuation<String?, any Error>?? {
        phase.withLock { phase in
            guard case .waiting(let waiter) = phase else { return nil }
            phase = outcome
            return .some(waiter)
        }
    }
}

/// One bound port and the sign-in waiting on it, if any. Touched only on the main context (the
/// registry, the accept loop and every connection run there), so its fields need no lock.
private final class LoopbackPort: @unchecked Sendable {
    /// The ports this process holds, waited on or held after their sign-in ended. Main context only.
    nonisolated(unsafe) private static var bound: [UInt16: LoopbackPort] = [:]

    /// Connections read at once; more wait in the kernel's queue until one is done.
    static let maxConnections = 16
    /// A request head must be complete (and its answer written) within this many seconds.
    static let requestDeadlineMilliseconds: UInt32 = 10_000
    /// Accepting that still fails this long after it began failing (out of file descriptors) ends the wait.
    static let interferenceMilliseconds: UInt32 = 5_000

    let port: UInt16
    private let page: LoopbackRedirectServer.Page
    private let listener: UnsafeMutablePointer<GSocketListener>
    private let cancellable: UnsafeMutablePointer<GCancellable>
    private var hold: Duration
    /// The sign-in this port answers for; nil once it ended (every request then gets the ended page).
    private var wait: LoopbackWait?
    /// The judge of the wait armed last: of its requests while it waits, and after it ended, so that a
    /// late request on another path is still just a 404.
    private var classify: (@Sendable (String) -> LoopbackRequestVerdict)?
    private var releaseTimer: guint = 0
    private(set) var releaseAt: ContinuousClock.Instant?
    private var accepting = false
    private var openConnections = 0
    private var failingSince: ContinuousClock.Instant?
    private var acceptRetryTimer: guint = 0
    private var interferenceTimer: guint = 0
    private var released = false

    /// A wait on `port`: the held port taken back, or a new one bound. Main context.
    static func wait(
        on port: UInt16, page: LoopbackRedirectServer.Page, hold: Duration, classify: @escaping @Sendable (String) -> LoopbackRequestVerdict
    ) throws -> LoopbackWait {
        let holder: LoopbackPort
        if port != 0, let held = bound[port] {
            guard held.wait == nil else { throw LoopbackListenError.portInUse(port: port) }
            holder = held
        } else {
            holder = try LoopbackPort(port: port, page: page)
            bound[holder.port] = holder
        }
        return holder.arm(hold: hold, classify: classify)
    }

    static func heldPorts() -> [UInt16: ContinuousClock.Instant] {
        bound.compactMapValues { $0.wait == nil ? $0.releaseAt : nil }
    }

    private init(port requested: UInt16, page: LoopbackRedirectServer.Page) throws {
        GIOTypes.register()
        self.page = page
        hold = .zero
        let listener = g_socket_listener_new()!
        let loopback = g_inet_address_new_loopback(G_SOCKET_FAMILY_IPV4)
        let address = g_inet_socket_address_new(loopback, requested)
        var error: UnsafeMutablePointer<GError>?
        var effective: UnsafeMutablePointer<GSocketAddress>?
        let bound = g_socket_listener_add_address(listener, address, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, nil, &effective, &error)
        g_object_unref(address)
        g_object_unref(loopback)
        guard bound != 0, let effective else {
            g_object_unref(listener)
            let failure = GLibError.take(&error)
            if failure?.matches(g_io_error_quark(), G_IO_ERROR_ADDRESS_IN_USE) == true {
                throw LoopbackListenError.portInUse(port: requested)
            }
            throw LoopbackListenError.cannotListen(port: requested, reason: failure?.message ?? "")
        }
        port = g_inet_socket_address_get_port(UnsafeMutablePointer<GInetSocketAddress>(OpaquePointer(effective)))
        g_object_unref(effective)
        self.listener = listener
        cancellable = g_cancellable_new()!
    }

    deinit {
        g_object_unref(listener)
        g_object_unref(cancellable)
    }

    private func arm(hold: Duration, classify: @escaping @Sendable (String) -> LoopbackRequestVerdict) -> LoopbackWait {
        if releaseTimer != 0 {
            g_source_remove(releaseTimer)
            releaseTimer = 0
        }
        releaseAt = nil
        self.hold = hold
        self.classify = classify
        // Found again through the table of bound ports, which alone owns the port: it is let go on
        // the main context, and the wait holds no reference to it.
        let number = port
        let wait = LoopbackWait(port: port) { ended in
            MainLoopBridge.invoke { LoopbackPort.bound[number]?.end(ended) }
        }
        self.wait = wait
        acceptNext()
        return wait
    }

    /// `ended` ended (cancelled, closed, failed): the port holds on for late requests. Main context.
    private func end(_ ended: LoopbackWait) {
        guard wait === ended else { return }
        wait = nil
        retire()
    }

    /// No sign-in waits any more: late requests get the ended page until the hold is over, then the
    /// port closes.
    private func retire() {
        releaseAt = .now + hold
        let milliseconds = hold.components.seconds * 1000 + hold.components.attoseconds / 1_000_000_000_000_000
        releaseTimer = MainContextTimer.after(milliseconds: UInt32(clamping: max(0, milliseconds))) { [self] in
            releaseTimer = 0
            release()
        }
    }

    /// Stops listening for good: a later connection is refused by the kernel, and the port is free.
    private func release() {
        guard !released else { return }
        released = true
        for timer in [acceptRetryTimer, interferenceTimer] where timer != 0 { g_source_remove(timer) }
        g_cancellable_cancel(cancellable)
        g_socket_listener_close(listener)
        Self.bound[port] = nil
    }

    // MARK: - Accepting

    private func acceptNext() {
        guard !released, !accepting, acceptRetryTimer == 0, openConnections < Self.maxConnections else { return }
        accepting = true
        let box = Unmanaged.passRetained(self).toOpaque()
        g_socket_listener_accept_async(
            listener, cancellable,
            { _, result, userData in
                let port = Unmanaged<LoopbackPort>.fromOpaque(userData!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let connection = g_socket_listener_accept_finish(port.listener, result, nil, &error)
                port.accepted(connection, failure: GLibError.take(&error))
            }, box)
    }

    private func accepted(_ connection: UnsafeMutablePointer<GSocketConnection>?, failure: GLibError?) {
        accepting = false
        guard let connection else {
            if failure?.matches(g_io_error_quark(), G_IO_ERROR_CANCELLED) == true || released { return }
            return acceptFailed()
        }
        // Another user's program may know the port: its connection is closed unread. One whose owner
        // could not be asked (no descriptor left) is closed too, and counts as a failed accept.
        let owner = Self.owner(of: connection)
        if owner != .unknown { failingSince = nil }
        guard owner == .thisUser else {
            g_io_stream_close(UnsafeMutableRawPointer(connection).assumingMemoryBound(to: GIOStream.self), nil, nil)
            g_object_unref(connection)
            return owner == .unknown ? acceptFailed() : acceptNext()
        }
        openConnections += 1
        LoopbackConnection(connection, port: self, deadlineMilliseconds: Self.requestDeadlineMilliseconds).start()
        acceptNext()
    }

    /// Out of file descriptors (or another failure that would come back at once): try again later
    /// instead of spinning. When the process still cannot take a connection and ask who sent it 5 s
    /// after the first failure, the wait ends: the sign-in is being interfered with.
    private func acceptFailed() {
        let now = ContinuousClock.now
        if failingSince == nil {
            failingSince = now
            interferenceTimer = MainContextTimer.after(milliseconds: Self.interferenceMilliseconds) { [self] in
                interferenceTimer = 0
                guard failingSince != nil else { return }
                guard !LoopbackPeer.canAsk() else {
                    failingSince = nil
                    return
                }
                if let wait {
                    wait.fail(.interfered(port: port))
                    end(wait)
                }
            }
        }
        let elapsed = now - (failingSince ?? now)
        let delay: UInt32 = elapsed < .milliseconds(100) ? 10 : (elapsed < .seconds(1) ? 100 : 500)
        acceptRetryTimer = MainContextTimer.after(milliseconds: delay) { [self] in
            acceptRetryTimer = 0
            acceptNext()
        }
    }

    private static func owner(of connection: UnsafeMutablePointer<GSocketConnection>) -> LoopbackPeer.Owner {
        guard let peer = endpoint(g_socket_connection_get_remote_address), let local = endpoint(g_socket_connection_get_local_address)
        else { return .someoneElse }
        return LoopbackPeer.owner(peer: peer, local: local)

        func endpoint(
            _ get: (UnsafeMutablePointer<GSocketConnection>?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> UnsafeMutablePointer<
                GSocketAddress
            >?
        ) -> SocketOwnerQuery.Endpoint? {
            var error: UnsafeMutablePointer<GError>?
            guard let address = get(connection, &error) else {
                _ = GLibError.take(&error)
                return nil
            }
            defer { g_object_unref(address) }
            guard g_socket_address_get_family(address) == G_SOCKET_FAMILY_IPV4 else { return nil }
            let inet = UnsafeMutablePointer<GInetSocketAddress>(OpaquePointer(address))
            let host = g_inet_socket_address_get_address(inet)
            guard let bytes = g_inet_address_to_bytes(host), g_inet_address_get_native_size(host) == 4 else { return nil }
            return SocketOwnerQuery.Endpoint(
                address: Array(UnsafeBufferPointer(start: bytes, count: 4)), port: g_inet_socket_address_get_port(inet))
        }
    }

    /// A connection finished (answered, timed out, or left): room for the next one.
    fileprivate func connectionClosed() {
        openConnections -= 1
        acceptNext()
    }

    // MARK: - Answering

    /// Decides what a complete request head gets; called once per connection.
    fileprivate func answer(_ head: LoopbackRequestHead) -> (response: [UInt8], taken: String?) {
        guard case .complete(let line) = head, let request = line, request.target.hasPrefix("/") else {
            return (Self.response(400, "Bad Request", plain: "Bad request."), nil)
        }
        let url = "http://127.0.0.1:\(port)" + request.target
        guard let wait else {
            // The sign-in ended: its redirect, however genuine, is never exchanged now.
            if classify?(url) == .notFound { return (Self.response(404, "Not Found", plain: "Not found."), nil) }
            return (Self.response(410, "Gone", html: pageHTML(title: page.endedTitle, message: page.endedMessage)), nil)
        }
        switch classify?(url) ?? .notFound {
        case .notFound:
            return (Self.response(404, "Not Found", plain: "Not found."), nil)
        case .notASignIn:
            return (Self.response(400, "Bad Request", plain: "This is not a sign-in result for this app."), nil)
        case .take:
            guard request.method == "GET" else {
                return (Self.response(405, "Method Not Allowed", plain: "Method not allowed.", extra: "Allow: GET\r\n"), nil)
            }
            // Taken: no other request is taken for this wait, the URL goes to it once the page is written.
            self.wait = nil
            pendingDelivery = wait
            retire()
            return (Self.response(200, "OK", html: pageHTML(title: page.title, message: page.message)), url)
        }
    }

    /// The wait whose redirect was taken, until its page has been written.
    private var pendingDelivery: LoopbackWait?

    fileprivate func handOver(_ url: String) {
        pendingDelivery?.deliver(url)
        pendingDelivery = nil
    }

    private func pageHTML(title: String, message: String) -> String {
        let title = HTMLText.escaped(title)
        let message = HTMLText.escaped(message)
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

/// One accepted connection of this user's: reads the request head, writes the answer, closes. One
/// deadline for all of it. Lives (retained by its pending GIO call or its timer) until it is closed.
/// Main context.
private final class LoopbackConnection {
    private let connection: UnsafeMutablePointer<GSocketConnection>
    private let port: LoopbackPort
    private let cancellable = g_cancellable_new()!
    private let deadlineMilliseconds: UInt32
    private var deadline: guint = 0
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 1)
    private var head = LoopbackRequestHead.Reader()
    /// The answer, kept in memory of its own while GIO writes it.
    private var response: UnsafeMutableRawBufferPointer?
    private var taken: String?
    private var closed = false

    init(_ connection: UnsafeMutablePointer<GSocketConnection>, port: LoopbackPort, deadlineMilliseconds: UInt32) {
        self.connection = connection
        self.port = port
        self.deadlineMilliseconds = deadlineMilliseconds
    }

    deinit {
        buffer.deallocate()
        response?.deallocate()
        g_object_unref(cancellable)
        g_object_unref(connection)
    }

    private var stream: UnsafeMutablePointer<GIOStream> {
        UnsafeMutableRawPointer(connection).assumingMemoryBound(to: GIOStream.self)
    }

    func start() {
        // A client that sends its head a byte at a time does not keep the connection past the deadline.
        deadline = MainContextTimer.after(milliseconds: deadlineMilliseconds) { [self] in
            deadline = 0
            g_cancellable_cancel(cancellable)
            close()
        }
        readMore()
    }

    private func readMore() {
        let box = Unmanaged.passRetained(self).toOpaque()
        g_input_stream_read_async(
            g_io_stream_get_input_stream(stream), buffer, 4096, G_PRIORITY_DEFAULT, cancellable,
            { _, result, userData in
                let connection = Unmanaged<LoopbackConnection>.fromOpaque(userData!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let count = g_input_stream_read_finish(g_io_stream_get_input_stream(connection.stream), result, &error)
                _ = GLibError.take(&error)
                connection.received(count)
            }, box)
    }

    private func received(_ count: Int) {
        guard !closed else { return }
        guard count > 0 else { return close() } // closed, reset or cancelled before a full head
        let parsed = head.append(UnsafeRawBufferPointer(start: buffer, count: count))
        guard parsed != .incomplete else { return readMore() }
        respond(port.answer(parsed))
    }

    private func respond(_ answer: (response: [UInt8], taken: String?)) {
        taken = answer.taken
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: answer.response.count, alignment: 1)
        answer.response.withUnsafeBytes { bytes.copyMemory(from: $0) }
        response = bytes
        let box = Unmanaged.passRetained(self).toOpaque()
        g_output_stream_write_all_async(
            g_io_stream_get_output_stream(stream), bytes.baseAddress, gsize(bytes.count),
            G_PRIORITY_DEFAULT, cancellable,
            { _, result, userData in
                let connection = Unmanaged<LoopbackConnection>.fromOpaque(userData!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                _ = g_output_stream_write_all_finish(g_io_stream_get_output_stream(connection.stream), result, nil, &error)
                _ = GLibError.take(&error)
                connection.close()
            }, box)
    }

    private func close() {
        guard !closed else { return }
        closed = true
        if deadline != 0 {
            g_source_remove(deadline)
            deadline = 0
        }
        g_io_stream_close(stream, nil, nil)
        // A taken redirect goes on even when the browser left before the page was written.
        if let taken { port.handOver(taken) }
        port.connectionClosed()
    }
}

/// A one-shot timer on the main context. The closure runs there once; the returned id cancels it
/// (`g_source_remove`) before it fires.
enum MainContextTimer {
    static func after(milliseconds: UInt32, _ body: @escaping () -> Void) -> guint {
        let box = Unmanaged.passRetained(TimerBox(body)).toOpaque()
        return g_timeout_add_full(
            G_PRIORITY_DEFAULT, guint(milliseconds),
            { userData in
                Unmanaged<TimerBox>.fromOpaque(userData!).takeUnretainedValue().body()
                return gboolean(0) // G_SOURCE_REMOVE
            }, box,
            { userData in
                Unmanaged<TimerBox>.fromOpaque(userData!).release()
            })
    }

    private final class TimerBox {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
