import AuthTestSupport
import Foundation
import Testing

/// The emulator as a dev tool on a shared machine: a web page cannot read it, a client cannot make
/// it hold memory or connections for ever.
@Suite("Hardening: dashboard origin checks, body caps, idle connections, abandoned holds")
final class HardeningTests: EmulatorSuite {
    var hostHeader: String { "127.0.0.1:\(emulator.port)" }

    @Test func theDashboardAnswersOnlyRequestsAddressedToItFromNoOtherOrigin() async throws {
        // Positive control: the dashboard itself, as a person's browser asks for it.
        let own = try await client.get("/")
        #expect(own.status == 200)
        #expect(own.text.contains("Current TOTP code"))

        // A DNS-rebinding page reaches 127.0.0.1 under its own host name.
        let rebound = try await client.get("/", headers: ["Host": "attacker.example:\(emulator.port)"])
        #expect(rebound.status == 403)
        #expect(!rebound.text.contains("Current TOTP code"))
        let foreignOrigin = try await client.get("/", headers: ["Origin": "http://attacker.example"])
        #expect(foreignOrigin.status == 403)
        let sameHostOtherPort = try await client.get("/", headers: ["Origin": "http://127.0.0.1:1"])
        #expect(sameHostOtherPort.status == 403)
        let ownOrigin = try await client.get("/", headers: ["Origin": "http://\(hostHeader)"])
        #expect(ownOrigin.status == 200)
    }

    @Test func aChunkedBodyIsCappedLikeADeclaredOne() throws {
        let path = "/api/v3/auth/oauth/tokens"
        // (RawHTTP.chunkedPost sends its own Host: 127.0.0.1; a second one would be refused.)
        let headers = ["x-portal-auth-environment-id: local-dev"]
        // Under the cap, a chunked body is read and handled like any other (a made-up grant: 401).
        let small = try RawHTTP.exchange(
            port: emulator.port,
            request: RawHTTP.chunkedPost(
                path: path, body: Data(#"{"token":"pg_madeup"}"#.utf8), headers: headers), timeout: 5)
        #expect(small.status == 401)

        // Over it, the emulator answers 413 and closes without reading the rest (the client is
        // still writing when the answer arrives).
        let padding = String(repeating: " ", count: 80 * 1024)
        let large = try RawHTTP.exchange(
            port: emulator.port,
            request: RawHTTP.chunkedPost(
                path: path, body: Data(#"{"token":"pg_madeup"\#(padding)}"#.utf8), headers: headers), timeout: 5)
        #expect(large.status == 413)
        #expect(large.text.contains("64 KiB"))
        #expect(large.closedByServer)
    }

    @Test func aHeldRequestIsFreedAsSoonAsItsClientLeaves() async throws {
        // The hang outlasts the wait below by far, so only a request let go early is seen freed.
        try await client.addFault(["path": "/api/v3/auth/methods", "kind": "hang", "seconds": 300])
        let request = Data(
            "GET /api/v3/auth/methods HTTP/1.1\r\nHost: \(hostHeader)\r\nx-portal-auth-environment-id: local-dev\r\n\r\n".utf8)
        let impatient = try RawHTTP.exchange(port: emulator.port, request: request, timeout: 1)
        #expect(!impatient.closedByServer, "the hang holds the request")
        // The client has closed its end; the emulator notices at once, not after the hang's 300
        // seconds (the wait is long only for a loaded machine; it ends as soon as the entry appears).
        let freed = await eventually(timeout: 120) {
            (try? await self.client.requestLog().contains { $0["path"] as? String == "/api/v3/auth/methods" && $0["status"] as? Int == 0 })
                == true
        }
        #expect(freed, "the held request was not let go when its client left")
    }
}

/// Idle connections, with an emulator of their own that gives up after one second.
@Suite("Hardening: idle connections are closed")
final class IdleConnectionTests {
    let emulator: EmulatorProcess

    init() throws { emulator = try EmulatorProcess(arguments: ["--idle-timeout", "1"]) }
    deinit { emulator.stop() }

    @Test func aConnectionThatSaysNothingIsClosed() throws {
        let silent = try RawHTTP.exchange(port: emulator.port, request: Data(), timeout: 5)
        #expect(silent.closedByServer)
        #expect(silent.seconds < 3)
    }

    @Test func aRequestWhoseHeadersNeverEndIsClosed() throws {
        let stalled = try RawHTTP.exchange(port: emulator.port, request: Data("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8), timeout: 5)
        #expect(stalled.closedByServer)
        #expect(stalled.seconds < 3)
    }

    @Test func aPromptRequestIsStillAnswered() throws {
        let prompt = try RawHTTP.exchange(
            port: emulator.port,
            request: Data(
                "GET /api/v3/auth/methods HTTP/1.1\r\nHost: 127.0.0.1:\(emulator.port)\r\nx-portal-auth-environment-id: local-dev\r\n\r\n"
                    .utf8),
            timeout: 5)
        #expect(prompt.status == 200)
    }
}
