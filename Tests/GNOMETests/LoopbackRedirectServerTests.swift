import AuthPlatform
import AuthTestSupport
import Foundation
import PortalAuth
import Testing

extension GNOMEIntegration {
    /// The GIO listener behind a loopback redirect, over real sockets: what it answers, what ends it.
    @Suite(.serialized) struct LoopbackRedirectServerTests {
        let server = LoopbackRedirectServer()

        init() { GLibLoopThread.ensureRunning() }

        static func verdict(_ url: String) -> LoopbackRequestVerdict {
            guard url.hasPrefix("http://127.0.0.1:"), let path = url.split(separator: "/", maxSplits: 3).last else { return .notFound }
            if path == "cb?result=1" { return .take }
            return path.hasPrefix("cb") ? .notASignIn : .notFound
        }

        func send(_ port: UInt16, _ request: String) throws -> RawHTTP.Reply {
            try RawHTTP.exchange(port: Int(port), request: Data(request.utf8), timeout: 10)
        }

        /// A client that connects and never says anything.
        func silentConnection(_ port: UInt16) -> Int32 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(port.bigEndian)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            return fd
        }

        @Test func oneRequestIsTakenWhileASilentClientAndWrongRequestsAreAnsweredAndLeftWaiting() async throws {
            let port = freeLoopbackPort()
            let listener = try await server.listen(port: port, classify: Self.verdict)
            let silent = silentConnection(port)
            defer { close(silent) }

            #expect(try send(port, "POST /cb?result=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n").status == 405)
            #expect(try send(port, "GET http://elsewhere.example/cb?result=1 HTTP/1.1\r\nHost: x\r\n\r\n").status == 400)
            #expect(try send(port, "not http at all\r\n\r\n").status == 400)
            #expect(try send(port, "GET /cb?result=2 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").status == 400)
            #expect(try send(port, "GET /other HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").status == 404)

            let reply = try send(port, "GET /cb?result=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(reply.status == 200)
            #expect(reply.text.contains("Referrer-Policy: no-referrer"), "the page's URL could leave as a referrer")
            #expect(reply.text.contains("Cache-Control: no-store"))
            #expect(reply.text.contains("You can close this tab"))
            #expect(await listener.redirect() == "http://127.0.0.1:\(port)/cb?result=1")
            #expect(throws: RawHTTP.Failure.self, "the port still listens after its one request") {
                try send(port, "GET /cb?result=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            }
            listener.close()
        }

        /// Loopback is shared by every user of the computer: a grant another user's program sends to the
        /// port while the sign-in waits would sign this user in to that user's account (login CSRF).
        @Test func aRequestFromAnotherUsersProgramIsRefusedAndLeavesTheWait() async throws {
            let port = freeLoopbackPort()
            let listener = try await server.listen(port: port, classify: Self.verdict)
            defer { listener.close() }
            let foreign = OtherUser.send(port: port, request: "GET /cb?result=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(foreign.hasPrefix("HTTP/1.1 403"), "another user's request got: \(foreign)")

            let reply = try send(port, "GET /cb?result=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(reply.status == 200, "this user's browser must still be able to finish the sign-in")
            #expect(await listener.redirect() == "http://127.0.0.1:\(port)/cb?result=1")
        }

        @Test func closingBeforeTheRedirectEndsTheWaitAndFreesThePort() async throws {
            let port = freeLoopbackPort()
            let listener = try await server.listen(port: port, classify: Self.verdict)
            let waiting = Task { await listener.redirect() }
            listener.close()
            #expect(await waiting.value == nil)
            #expect(await eventually(timeout: 5) { (try? send(port, "GET /cb HTTP/1.1\r\n\r\n")) == nil }, "still listening after close")
            // The port is free again: the next sign-in can bind it.
            let again = try await server.listen(port: port, classify: Self.verdict)
            again.close()
        }

        @Test func aPortThisProcessAlreadyHoldsIsInUse() async throws {
            let port = freeLoopbackPort()
            let first = try await server.listen(port: port, classify: Self.verdict)
            defer { first.close() }
            await #expect(throws: LoopbackListenError.portInUse(port: port)) {
                _ = try await server.listen(port: port, classify: Self.verdict)
            }
        }
    }
}
