import AuthTestSupport
import Foundation

/// What the other user does to the emulator: serve pages, send requests.
extension OtherUser {
    /// A web page the other user serves on a loopback port of their own: it answers one request and
    /// keeps the `Cookie` headers that request carried, as a page that wants the owner's cookies would.
    final class CookieCatcher {
        let port: Int
        private let process: Process
        private let out: Pipe

        private static let script = #"""
            import http.server, json, sys
            class Page(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    self.server.cookies = self.headers.get_all("Cookie") or []
                    self.send_response(200)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                def log_message(self, *arguments):
                    pass
            server = http.server.HTTPServer(("127.0.0.1", 0), Page)
            server.cookies = None
            server.timeout = 30
            print(server.server_address[1], flush=True)
            server.handle_request()
            print(json.dumps({"received": server.cookies is not None, "cookies": server.cookies or []}), flush=True)
            """#

        init() throws {
            (process, out) = OtherUser.python(Self.script)
            try process.run()
            var first = Data()
            while !first.contains(UInt8(ascii: "\n")) {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                first.append(chunk)
            }
            guard let line = String(decoding: first, as: UTF8.self).split(separator: "\n").first, let port = Int(line) else {
                process.terminate()
                throw EmulatorLauncher.LaunchFailure(description: "the other user's page did not start")
            }
            self.port = port
        }

        /// Whether the page was asked for, and every `Cookie` header it received (held, never printed).
        func received() -> (asked: Bool, cookies: [String]) {
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
            let seen = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
            return (seen["received"] as? Bool ?? false, seen["cookies"] as? [String] ?? [])
        }

        deinit { if process.isRunning { process.terminate() } }
    }
}

/// What a browser does on 127.0.0.1: follows redirects, keeps every cookie it is sent, and sends
/// them to every port of the host (cookies do not keep ports apart). Raw HTTP, so that every
/// `Set-Cookie` is seen as sent.
final class LoopbackBrowser {
    struct Failure: Error, CustomStringConvertible { let description: String }

    struct Page {
        let status: Int
        let headers: [(name: String, value: String)]
        let body: String
        func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    }

    /// name → value, for host 127.0.0.1, whichever port set them.
    private(set) var jar: [String: String] = [:]
    /// Every `Set-Cookie` header value received, in order.
    private(set) var setCookies: [String] = []

    /// The `Cookie` header this browser sends to any port of 127.0.0.1, or nil with no cookie.
    var cookieHeader: String? { jar.isEmpty ? nil : jar.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }

    /// GETs `url` (http://127.0.0.1:PORT/…) and follows up to five redirects; the last page.
    func visit(_ url: String) throws -> Page {
        var target = url
        for _ in 0..<6 {
            guard let parsed = URL(string: target), let port = parsed.port else {
                throw Failure(description: "not a loopback URL")
            }
            let path = String(target.dropFirst("http://127.0.0.1:\(port)".count))
            let page = try get(port: port, path: path.isEmpty ? "/" : path)
            guard (300..<400).contains(page.status), let location = page.header("Location") else { return page }
            target = location.hasPrefix("/") ? "http://127.0.0.1:\(port)\(location)" : location
        }
        throw Failure(description: "too many redirects")
    }

    private func get(port: Int, path: String) throws -> Page {
        var lines = ["GET \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close", "Accept: text/html"]
        if let cookieHeader { lines.append("Cookie: \(cookieHeader)") }
        let reply = try RawHTTP.exchange(port: port, request: Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8), timeout: 10)
        let parts = reply.text.components(separatedBy: "\r\n\r\n")
        let head = parts.first?.components(separatedBy: "\r\n") ?? []
        let headers = head.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        for (name, value) in headers where name.lowercased() == "set-cookie" {
            setCookies.append(value)
            let pair = value.split(separator: ";", maxSplits: 1).first?.split(separator: "=", maxSplits: 1) ?? []
            if pair.count == 2 { jar[pair[0].trimmingCharacters(in: .whitespaces)] = String(pair[1]) }
        }
        return Page(status: reply.status ?? 0, headers: headers, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }
}
