import AuthTestSupport
import Foundation
import PortalAuth
import PortalAuthGNOME
import Testing

extension GNOMEIntegration {
    /// libsoup against the emulator over loopback, with the GLib loop on its own thread.
    @Suite(.serialized) struct SoupTransportTests {
        let emulator: AdministeredEmulator

        init() async throws {
            GLibLoopThread.ensureRunning()
            emulator = try #require(AdministeredEmulator.shared, "the emulator must start (swift build first)")
            try await emulator.reset()
        }

        var methodsURL: URL { emulator.baseURL.appendingPathComponent("api/v3/auth/methods") }

        @Test func returnsStatusHeadersAndBody() async throws {
            let response = try await SoupTransport().send(
                HTTPRequest(
                    method: "GET", url: methodsURL,
                    headers: ["x-portal-auth-environment-id": "local-dev", "Accept": "application/json"]))
            #expect(response.status == 200)
            let contentType = response.headers.first { $0.key.lowercased() == "content-type" }?.value ?? ""
            #expect(contentType.hasPrefix("application/json"))
            let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            let methods = (json?["data"] as? [String: Any])?["allowedAuthMethods"] as? [String]
            #expect(methods == ["EMAIL_MAGIC_LINK", "GOOGLE", "APPLE"])
            // The emulator saw exactly what was sent.
            #expect(try await emulator.requests("GET", "/api/v3/auth/methods").map(\.status) == [200])
        }

        @Test func errorStatusesAreResponsesNotErrors() async throws {
            let response = try await SoupTransport().send(HTTPRequest(method: "GET", url: methodsURL))
            #expect(response.status == 401)
            let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            #expect(json?["error"] is String)
        }

        @Test func sendsTheBody() async throws {
            let before = try await emulator.admin("POST", "clock", body: ["advanceSeconds": 0]) as? [String: Any]
            let response = try await SoupTransport().send(
                HTTPRequest(
                    method: "POST", url: emulator.baseURL.appendingPathComponent("emulator/v1/clock"),
                    headers: emulator.adminHeaders.merging(["Content-Type": "application/json"]) { $1 },
                    body: Data(#"{"advanceSeconds":120}"#.utf8)))
            #expect(response.status == 200)
            let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            let now = ((json?["data"] as? [String: Any])?["now"] as? NSNumber)?.intValue
            let earlier = (before?["now"] as? NSNumber)?.intValue
            #expect(now != nil && earlier != nil && now! - earlier! >= 120)
        }

        @Test func doesNotFollowRedirectsSoTheAppRedirectIsSeen() async throws {
            // The provider → callback → app chain is a series of 3xx answers; ProviderPageBrowser follows them
            // one by one with SoupTransport and can only see the app's redirect if libsoup did not.
            let authorize = try await authorizeURL()
            let redirect = try await ProviderPageBrowser().signIn(
                authorizeUrl: authorize.absoluteString,
                choices: ["email": "alice@example.com"])
            #expect(redirect.hasPrefix("io.github.portalauth.signin://auth/callback?"))
            #expect(redirect.contains("login_type=GOOGLE"))
            #expect(try await emulator.requests("GET", "/api/v3/auth/oauth/callback/local-dev").map(\.status) == [302])
        }

        @Test func refusedConnectionIsCannotConnect() async throws {
            let error = await transportError {
                try await SoupTransport().send(HTTPRequest(method: "GET", url: URL(string: "http://127.0.0.1:1/api/v3/auth/methods")!))
            }
            #expect(error?.kind == .cannotConnect)
        }

        @Test func silentServerIsTimedOut() async throws {
            try await emulator.fault(path: "/api/v3/auth/methods", kind: "hang", seconds: 6)
            let started = Date()
            let error = await transportError {
                try await SoupTransport(timeoutSeconds: 1).send(
                    HTTPRequest(
                        method: "GET", url: methodsURL,
                        headers: ["x-portal-auth-environment-id": "local-dev"]))
            }
            #expect(error?.kind == .timedOut)
            #expect(Date().timeIntervalSince(started) < 5)
        }

        @Test func droppedConnectionIsConnectionLostAndTheMessageHoldsNoRequestContents() async throws {
            try await emulator.fault(path: "/api/v3/auth/oauth/tokens", kind: "drop")
            let marker = "pg_transporttestmarker0123456789"
            let error = await transportError {
                try await SoupTransport().send(
                    HTTPRequest(
                        method: "POST", url: emulator.baseURL.appendingPathComponent("api/v3/auth/oauth/tokens"),
                        headers: [
                            "x-portal-auth-environment-id": "local-dev", "Content-Type": "application/json",
                            "X-Test-Header": "header-marker"
                        ],
                        body: Data(#"{"token":"\#(marker)"}"#.utf8)))
            }
            #expect(error?.kind == .connectionLost)
            let message = error?.description ?? ""
            let mentionsRequest = message.contains(marker) || message.contains("header-marker") || message.contains("/api/v3")
            #expect(!mentionsRequest)
        }

        @Test func cancellingTheTaskCancelsTheRequestInFlight() async throws {
            // A server that has the request and answers only after 20 s.
            let server = try CannedHTTPServer(body: "{}", trickle: (bytes: 4096, interval: 20))
            defer { server.stop() }
            let url = server.baseURL.appendingPathComponent("slow")
            let task = Task { try await SoupTransport().send(HTTPRequest(method: "GET", url: url)) }
            // Cancelled only once the request is known to have arrived, so it was in flight.
            let arrived = await eventually(timeout: 10) { server.requestsReceived == 1 }
            try #require(arrived, "the request never reached the server")
            let cancelled = Date()
            task.cancel()
            let error = await transportError { try await task.value }
            #expect(error?.kind == .cancelled)
            #expect(Date().timeIntervalSince(cancelled) < 2, "the cancelled request still waited for the server")
        }

        // MARK: bounded I/O

        @Test func aTrickledAnswerStopsAtTheDeadlineThoughNoReadTimesOut() async throws {
            // One byte every 0.3 s: no single read waits long, the whole answer would take minutes.
            let slow = try CannedHTTPServer(body: String(repeating: "x", count: 500), trickle: (bytes: 1, interval: 0.3))
            defer { slow.stop() }
            let started = Date()
            let error = await transportError {
                try await SoupTransport(timeoutSeconds: 2).send(HTTPRequest(method: "GET", url: slow.baseURL))
            }
            #expect(error?.kind == .timedOut)
            let took = Date().timeIntervalSince(started)
            #expect(took >= 1.9 && took < 4, "took \(took) s, the deadline is 2 s")

            // Positive control: a trickled answer that fits in the deadline arrives whole.
            let quick = try CannedHTTPServer(body: #"{"ok":true}"#, trickle: (bytes: 16, interval: 0.05))
            defer { quick.stop() }
            let response = try await SoupTransport(timeoutSeconds: 2).send(HTTPRequest(method: "GET", url: quick.baseURL))
            #expect(response.status == 200)
            #expect(response.body == Data(#"{"ok":true}"#.utf8))
        }

        @Test func anAnswerLargerThanTheCapIsRefusedWithoutReadingItAll() async throws {
            let cap = 64 * 1024
            let transport = SoupTransport(configuration: TransportConfiguration(maxResponseBytes: cap))
            // Positive control: just under the cap arrives whole.
            let fits = try CannedHTTPServer(body: String(repeating: "a", count: cap))
            defer { fits.stop() }
            #expect(try await transport.send(HTTPRequest(method: "GET", url: fits.baseURL)).body.count == cap)

            let declared = try CannedHTTPServer(body: "{}", headers: ["Content-Length: 99999999"])
            defer { declared.stop() }
            #expect(
                await transportError { try await transport.send(HTTPRequest(method: "GET", url: declared.baseURL)) }?.kind
                    == .responseTooLarge)

            // No length declared (the body ends when the connection does): stopped while reading.
            let endless = try CannedHTTPServer(
                body: String(repeating: "b", count: 4 * cap), headers: ["X-Length: none"],
                declareLength: false)
            defer { endless.stop() }
            #expect(
                await transportError { try await transport.send(HTTPRequest(method: "GET", url: endless.baseURL)) }?.kind
                    == .responseTooLarge)
        }

        @Test func anUnreadableCAFileSendsNothing() async throws {
            let server = try CannedHTTPServer(body: "{}")
            defer { server.stop() }
            let transport = SoupTransport(configuration: TransportConfiguration(caFile: TestScratch.directory + "/no-such-ca.pem"))
            let error = await transportError { try await transport.send(HTTPRequest(method: "GET", url: server.baseURL)) }
            #expect(error?.kind == .caFileUnreadable)
            #expect(error?.detail.contains("no-such-ca.pem") == true)
            #expect(server.requestsReceived == 0)
        }

        private func authorizeURL() async throws -> URL {
            var components = URLComponents(
                url: emulator.baseURL.appendingPathComponent("api/v3/auth/oauth/urls"),
                resolvingAgainstBaseURL: false)!
            components.percentEncodedQuery = "redirectUrl=io.github.portalauth.signin%3A%2F%2Fauth%2Fcallback"
            let response = try await SoupTransport().send(
                HTTPRequest(
                    method: "GET", url: components.url!,
                    headers: ["x-portal-auth-environment-id": "local-dev"]))
            let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            let google = (json?["data"] as? [String: Any])?["google"] as? String
            return try #require(google.flatMap(URL.init(string:)))
        }

        private func transportError(_ body: () async throws -> HTTPResponse) async -> TransportError? {
            do {
                _ = try await body()
                return nil
            } catch {
                return error as? TransportError
            }
        }
    }
}
