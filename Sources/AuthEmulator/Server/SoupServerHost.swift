import CEmulatorServer
import Foundation
import GLibSupport
import PortalAuthGNOME

/// The only file that touches libsoup: turns SoupServerMessages into EmulatorRequests and writes
/// EmulatorResponses back (or holds / drops the connection for injected faults).
final class SoupServerHost {
    private let emulator: Emulator
    private var server: UnsafeMutablePointer<SoupServer>?

    init(emulator: Emulator) { self.emulator = emulator }

    /// Listens on 127.0.0.1:`port` (0 = any free port) and returns the bound port. With `tls`
    /// (certificate and key PEM files) every connection is https.
    func listen(port: UInt16, tls: (certificate: String, key: String)? = nil, idleSeconds: UInt32) throws -> UInt16 {
        let server = portal_emu_server_new(
            { message, path, rawQuery, userData in
                guard let message, let userData else { return }
                let host = Unmanaged<SoupServerHost>.fromOpaque(userData).takeUnretainedValue()
                host.serve(
                    message, path: path.map { String(cString: $0) } ?? "/",
                    rawQuery: rawQuery.map { String(cString: $0) } ?? "")
            }, Unmanaged.passUnretained(self).toOpaque(), gsize(Emulator.maxBodyBytes), guint(idleSeconds))
        self.server = server
        var error: UnsafeMutablePointer<GError>?
        if let tls, portal_emu_server_use_tls(server, tls.certificate, tls.key, &error) == 0 {
            let reason = GLibError.take(&error)?.message ?? "unknown error"
            throw ServerError(message: "cannot use the TLS certificate \(tls.certificate) with the key \(tls.key): \(reason)")
        }
        let bound = portal_emu_server_listen_loopback(server, guint(port), &error)
        if bound == 0 {
            let reason = GLibError.take(&error)?.message ?? "unknown error"
            throw ServerError(message: "cannot listen on 127.0.0.1:\(port): \(reason)")
        }
        emulator.baseURL = "\(tls == nil ? "http" : "https")://127.0.0.1:\(bound)"
        return UInt16(bound)
    }

    func stop() {
        guard let server else { return }
        portal_emu_server_stop(server)
        g_object_unref(server)
        self.server = nil
    }

    private func serve(_ message: OpaquePointer, path: String, rawQuery: String) {
        switch emulator.handle(readRequest(message, path: path, rawQuery: rawQuery)) {
        case .respond(let response):
            write(response, to: message)
        case .drop:
            portal_emu_message_drop(message)
        case .hold(let seconds, let respond, let abandoned):
            let box = Unmanaged.passRetained(HoldBox(respond: respond, abandoned: abandoned, host: self)).toOpaque()
            // Called exactly once, so the box is released exactly once.
            portal_emu_message_hold(
                message, guint(seconds),
                { message, clientGone, userData in
                    guard let message, let userData else { return }
                    let box = Unmanaged<HoldBox>.fromOpaque(userData).takeRetainedValue()
                    if clientGone != 0 {
                        box.abandoned()
                    } else {
                        box.host.write(box.respond(), to: message)
                    }
                }, box)
        }
    }

    private final class HoldBox {
        let respond: () -> EmulatorResponse
        let abandoned: () -> Void
        let host: SoupServerHost
        init(respond: @escaping () -> EmulatorResponse, abandoned: @escaping () -> Void, host: SoupServerHost) {
            self.respond = respond
            self.abandoned = abandoned
            self.host = host
        }
    }

    private func readRequest(_ message: OpaquePointer, path: String, rawQuery: String) -> EmulatorRequest {
        let method = soup_server_message_get_method(message).map { String(cString: $0) } ?? "GET"

        let headers = SoupHeaders.fields(of: soup_server_message_get_request_headers(message), lowercasingNames: true)

        var body = Data()
        if let requestBody = soup_server_message_get_request_body(message),
            let bytes = soup_message_body_flatten(requestBody)
        {
            var size: gsize = 0
            if let data = g_bytes_get_data(bytes, &size), size > 0 { body = Data(bytes: data, count: Int(size)) }
            g_bytes_unref(bytes)
        }
        return EmulatorRequest(method: method, path: path, rawQuery: rawQuery, headers: headers, body: body)
    }

    private func write(_ response: EmulatorResponse, to message: OpaquePointer) {
        soup_server_message_set_status(message, guint(response.status), nil)
        // One request per connection: otherwise a client whose kept-alive connection is dropped by a
        // `drop` fault silently resends the request on a new one (curl and libsoup both do), and the
        // fault would not be seen at all.
        portal_emu_message_add_header(message, "Connection", "close")
        for (name, value) in response.headers { portal_emu_message_add_header(message, name, value) }
        if let contentType = response.contentType {
            response.body.withUnsafeBytes { raw in
                soup_server_message_set_response(
                    message, contentType, SOUP_MEMORY_COPY,
                    raw.bindMemory(to: CChar.self).baseAddress, gsize(raw.count))
            }
        }
    }
}

struct ServerError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
