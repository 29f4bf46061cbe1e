import AuthTestSupport
import Foundation
import Glibc
import PortalAuth
import PortalAuthGNOME
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

        /// Long enough for a test to act; the real hold is the authorize URL's lifetime.
        static let hold = Duration.seconds(600)

        @Test func oneRequestIsTakenWhileASilentClientAndWrongRequestsAreAnsweredAndLeftWaiting() async throws {
            let port = freeLoopbackPort()
            let listener = try await server.listen(port: port, holdingPortFor: Self.hold, classify: Self.verdict)
            defer { listener.close() }
            let silent = try OpenConnection(port: port)
            defer { silent.close() }

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
            #expect(try await listener.redirect() == "http://127.0.0.1:\(port)/cb?result=1")
            // Only one request is taken: the same redirect again gets the ended page, and is not handed on.
            let again = try send(port, "GET /cb?result=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(again.status == 410)
            #expect(again.text.contains("Sign-in ended") && again.text.contains("nothing was signed in"))
        }

        /// Loopback is shared by every user of the computer: a grant another user's program sends to the
        /// port while the sign-in waits would sign this user in to that user's account (login CSRF).
        @Test func aConnectionFromAnotherUsersProgramIsClosedUnreadAndLeavesTheWait() async throws {
            let port = freeLoopbackPort()
            let listener = try await server.listen(port: port, holdingPortFor: Self.hold, classify: Self.verdict)
            defer { listener.close() }
            let foreign = OtherUser.send(port: port, request: "GET /cb?result=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(foreign == "no answer", "another user's request got: \(foreign)")

            let reply = try send(port, "GET /cb?result=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(reply.status == 200, "this user's browser must still be able to finish the sign-in")
            #expect(try await listener.redirect() == "http://127.0.0.1:\(port)/cb?result=1")
        }

        /// The peer is matched by its whole address, not its port: another user connecting from
        /// 127.0.0.2:P while this user has a connection open from 127.0.0.1:P is not this user.
        @Test func aPeerOnAnotherLoopbackAddressIsRefusedEvenBesideThisUsersConnectionOnItsPort() async throws {
            let port = freeLoopbackPort()
            let listener = try await server.listen(port: port, holdingPortFor: Self.hold, classify: Self.verdict)
            defer { listener.close() }
            // This user's browser, preconnected from 127.0.0.1:P and saying nothing yet.
            let own = try OpenConnection(port: port)
            defer { own.close() }
            let foreign = OtherUser.send(
                port: port, request: "GET /cb?result=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", from: "127.0.0.2", sourcePort: own.localPort)
            #expect(foreign == "no answer", "a request from 127.0.0.2:\(own.localPort) got: \(foreign)")
            let waiting = Task { try await listener.redirect() }
            try await Task.sleep(for: .milliseconds(300))
            waiting.cancel()
            listener.close()
            #expect(try await waiting.value == nil, "the forged redirect was taken")
        }

        /// After a cancel the provider's tab can still finish: the port stays this process's, and what
        /// comes is answered with the ended page and never handed on.
        @Test func afterTheWaitEndsThePortStaysHeldAnswersTheEndedPageAndIsTakenBack() async throws {
            let port = freeLoopbackPort()
            let listener = try await server.listen(port: port, holdingPortFor: Self.hold, classify: Self.verdict)
            let waiting = Task { try await listener.redirect() }
            listener.close()
            #expect(try await waiting.value == nil)

            for sharing in OtherUser.Sharing.allCases {
                let attempt = OtherUser.tryToBind(host: "127.0.0.1", port: port, sharing: sharing)
                #expect(attempt == "refused 98", "another user, with \(sharing), after the wait ended: \(attempt)")
            }
            let late = try send(port, "GET /cb?result=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(late.status == 410)
            #expect(late.text.contains("Cache-Control: no-store") && late.text.contains("Referrer-Policy: no-referrer"))
            #expect(try send(port, "GET /other HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").status == 404)
            #expect(await LoopbackRedirectServer.heldPorts()[port] != nil, "the port is not reported as held")

            // The next sign-in on the same port takes it back and gets its redirect.
            let again = try await server.listen(port: port, holdingPortFor: Self.hold, classify: Self.verdict)
            defer { again.close() }
            #expect(await LoopbackRedirectServer.heldPorts()[port] == nil)
            #expect(try send(port, "GET /cb?result=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").status == 200)
            #expect(try await again.redirect() == "http://127.0.0.1:\(port)/cb?result=1")
        }

        @Test func theHeldPortIsFreedWhenTheHoldIsOver() async throws {
            let port = freeLoopbackPort()
            let listener = try await server.listen(port: port, holdingPortFor: .milliseconds(300), classify: Self.verdict)
            listener.close()
            #expect(await eventually(timeout: 5) { (try? send(port, "GET /cb HTTP/1.1\r\n\r\n")) == nil }, "still listening after the hold")
            #expect(OtherUser.tryToBind(host: "127.0.0.1", port: port, sharing: .reuseAddress) == "bound")
        }

        @Test func aPortThisProcessWaitsOnIsInUse() async throws {
            let port = freeLoopbackPort()
            let first = try await server.listen(port: port, holdingPortFor: Self.hold, classify: Self.verdict)
            defer { first.close() }
            await #expect(throws: LoopbackListenError.portInUse(port: port)) {
                _ = try await server.listen(port: port, holdingPortFor: Self.hold, classify: Self.verdict)
            }
        }

        /// Port 0 (RFC 8252 §7.3): the system picks a free port, which the wait names.
        @Test func portZeroListensOnAPortTheSystemChose() async throws {
            let listener = try await server.listen(port: 0, holdingPortFor: Self.hold, classify: Self.verdict)
            defer { listener.close() }
            #expect(listener.port != 0)
            #expect(try send(listener.port, "GET /cb?result=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").status == 200)
            #expect(try await listener.redirect() == "http://127.0.0.1:\(listener.port)/cb?result=1")
        }

        /// One deadline for the whole head: a byte every second does not keep a connection open.
        @Test func aHeadSentSlowlyIsCutOffAtItsDeadline() async throws {
            let port = freeLoopbackPort()
            let listener = try await server.listen(port: port, holdingPortFor: Self.hold, classify: Self.verdict)
            defer { listener.close() }
            let slow = try OpenConnection(port: port)
            defer { slow.close() }
            var closedAfter: Int?
            for second in 1...20 {
                // A reset or an EOF: the listener closed its end.
                if SwiftGlibc.send(slow.fd, "G", 1, Int32(MSG_NOSIGNAL)) < 0 || peerClosed(slow.fd) {
                    closedAfter = second
                    break
                }
                try await Task.sleep(for: .seconds(1))
            }
            let after = try #require(closedAfter, "a slow head kept its connection for 20 s")
            #expect(after <= 13, "closed only after \(after) s")
        }

        func peerClosed(_ fd: Int32) -> Bool {
            var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&poll, 1, 0) > 0 else { return false }
            var byte: UInt8 = 0
            return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) <= 0
        }
    }
}
