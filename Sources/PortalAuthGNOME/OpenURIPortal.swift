import CAuthPlatform
import FoundationEssentials
import GLibSupport

/// Opens a URL through xdg-desktop-portal's OpenURI (`org.freedesktop.portal.OpenURI.OpenURI`), as a
/// sandboxed app must: the browser runs outside the sandbox, started by the portal.
///
/// Not GIO's own portal client: GLib 2.84's aborts the whole process when the portal refuses the
/// call (a desktop whose portal offers no OpenURI, a caller it cannot identify), where this one
/// reports the portal's words. The request's `Response` is subscribed to before the call, on the
/// handle the portal will use (`handle_token`), so an answer that comes before the reply is kept.
enum OpenURIPortal {
    private static let portal = "org.freedesktop.portal.Desktop"
    private static let portalPath = "/org/freedesktop/portal/desktop"

    /// - Parameters:
    ///   - parentWindow: the window the request belongs to (`x11:XID`, `wayland:HANDLE`), or "".
    ///   - activationToken: lets the browser come to the front (the portal's `activation_token`).
    static func open(_ uri: String, parentWindow: String = "", activationToken: String? = nil) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            MainLoopBridge.invoke {
                Request.start(uri, parentWindow: parentWindow, activationToken: activationToken, continuation)
            }
        }
    }

    /// One OpenURI call: its Response subscription and the continuation it resumes, once.
    private final class Request {
        private let continuation: CheckedContinuation<Void, any Error>
        private let bus: OpaquePointer
        private var subscription: UInt32 = 0
        private var handle: String
        private var finished = false

        private init(bus: OpaquePointer, handle: String, continuation: CheckedContinuation<Void, any Error>) {
            self.bus = bus
            self.handle = handle
            self.continuation = continuation
        }

        deinit { g_object_unref(UnsafeMutableRawPointer(bus)) }

        static func start(
            _ uri: String, parentWindow: String, activationToken: String?, _ continuation: CheckedContinuation<Void, any Error>
        ) {
            var error: UnsafeMutablePointer<GError>?
            guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
                let reason = GLibError.take(&error)?.message ?? "no session bus"
                return continuation.resume(throwing: BrowserLaunchError(reason: reason))
            }
            let token = "portalsignin\(UInt32.random(in: 1...UInt32.max))"
            // The portal's request path: the caller's unique name without ':' and with '.' as '_'.
            let sender = String(String(cString: g_dbus_connection_get_unique_name(bus)).dropFirst().replacing(".", with: "_"))
            let request = Request(bus: bus, handle: "\(portalPath)/request/\(sender)/\(token)", continuation: continuation)
            let retained = Unmanaged.passRetained(request)
            request.subscribe(retained)
            g_dbus_connection_call(
                bus, portal, portalPath, "org.freedesktop.portal.OpenURI", "OpenURI",
                parameters(uri, token: token, parentWindow: parentWindow, activationToken: activationToken),
                nil, G_DBUS_CALL_FLAGS_NONE, -1, nil,
                { source, result, userData in
                    let request = Unmanaged<Request>.fromOpaque(userData!).takeUnretainedValue()
                    var error: UnsafeMutablePointer<GError>?
                    guard let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) else {
                        let reason = GLibError.take(&error)?.message ?? "the desktop portal did not answer"
                        return request.finish(.failure(BrowserLaunchError(reason: reason)))
                    }
                    defer { g_variant_unref(reply) }
                    guard g_variant_check_format_string(reply, "(o)", 0) != 0 else {
                        return request.finish(.failure(BrowserLaunchError(reason: "the desktop portal gave an answer it should not")))
                    }
                    let child = g_variant_get_child_value(reply, 0)
                    defer { g_variant_unref(child) }
                    let path = String(cString: g_variant_get_string(child, nil))
                    // A portal older than handle_token answers on a path of its own choosing.
                    if !request.finished, path != request.handle {
                        request.handle = path
                        request.unsubscribe()
                        request.subscribe(Unmanaged.passUnretained(request))
                    }
                }, retained.toOpaque())
        }

        private func subscribe(_ retained: Unmanaged<Request>) {
            subscription = g_dbus_connection_signal_subscribe(
                bus, Self.portalName, "org.freedesktop.portal.Request", "Response", handle, nil,
                G_DBUS_SIGNAL_FLAGS_NO_MATCH_RULE,
                { _, _, _, _, _, parameters, userData in
                    let request = Unmanaged<Request>.fromOpaque(userData!).takeUnretainedValue()
                    let code = g_variant_get_child_value(parameters, 0)
                    defer { g_variant_unref(code) }
                    switch g_variant_get_uint32(code) {
                    case 0: request.finish(.success(()))
                    case 1: request.finish(.failure(BrowserLaunchError(reason: "opening the browser was cancelled")))
                    default: request.finish(.failure(BrowserLaunchError(reason: "the desktop portal could not open a browser")))
                    }
                }, retained.toOpaque(), nil)
        }

        private func unsubscribe() {
            if subscription != 0 { g_dbus_connection_signal_unsubscribe(bus, subscription) }
            subscription = 0
        }

        /// Resumes the caller once, drops the subscription and the reference `start` took.
        private func finish(_ outcome: Result<Void, any Error>) {
            guard !finished else { return }
            finished = true
            unsubscribe()
            continuation.resume(with: outcome)
            Unmanaged.passUnretained(self).release()
        }

        private static let portalName = OpenURIPortal.portal

        /// `(ssa{sv})`: the parent window, the URI, and the options (the request's token, and the
        /// activation token when there is one). Floating, so the call takes it.
        private static func parameters(_ uri: String, token: String, parentWindow: String, activationToken: String?) -> OpaquePointer {
            func option(_ key: String, _ value: String) -> OpaquePointer? {
                g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(g_variant_new_string(value)))
            }
            var entries: [OpaquePointer?] = [option("handle_token", token)]
            if let activationToken { entries.append(option("activation_token", activationToken)) }
            let options = g_variant_new_array(nil, &entries, gsize(entries.count))
            var children: [OpaquePointer?] = [g_variant_new_string(parentWindow), g_variant_new_string(uri), options]
            return g_variant_new_tuple(&children, 3)
        }
    }
}
