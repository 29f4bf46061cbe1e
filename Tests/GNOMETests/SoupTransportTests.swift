import Foundation
import PortalAuth
import PortalAuthGNOME
import Testing

extension GNOMEIntegration {
    /// libsoup against the emulator over loopback, with the GLib loop on its own thread.
    @Suite(.serialized) struct SoupTransportTests {
        let emulator: Emulator

        init() async throws {
            GLibLoopThread.ensureRunning()
            emulator = try #require(Emulator.shared, "the emulator must start (swift build first)")
            try await emulator.reset()
        }

        var methodsURL: URL { emulator.baseURL.appendingPathComponent("api/v3/auth/methods") }

        @Test func returnsStatusHeadersAndBody() async throws {
            let response = try await SoupTransport().send(HTTPRequest(
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
            let response = try await SoupTransport().send(HTTPRequest(
                method: "POST", url: emulator.baseURL.appendingPathComponent("emulator/v1/clock"),
                headers: ["Content-Type": "application/json"], body: Data(#"{"advanceSeconds":120}"#.utf8)))
            #expect(response.status == 200)
            let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            let now = ((json?["data"] as? [String: Any])?["now"] as? NSNumber)?.intValue
            let earlier = (before?["now"] as? NSNumber)?.intValue
            #expect(now != nil && earlier != nil && now! - earlier! >= 120)
        }

        @Test func doesNotFollowRedirectsSoTheAppRedirectIsSeen() async throws {
            // The provider → callback → app chain is a series of 3xx answers; FakeBrowser follows them
            // one by one with SoupTransport and can only see the app's redirect if libsoup did not.
            let authorize = try await authorizeURL()
            let redirect = try await FakeBrowser().signIn(authorizeUrl: authorize.absoluteString,
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
                try await SoupTransport(timeoutSeconds: 1).send(HTTPRequest(method: "GET", url: methodsURL,
                                                                           headers: ["x-portal-auth-environment-id": "local-dev"]))
            }
            #expect(error?.kind == .timedOut)
            #expect(Date().timeIntervalSince(started) < 5)
        }

        @Test func droppedConnectionIsConnectionLostAndTheMessageHoldsNoRequestContents() async throws {
            try await emulator.fault(path: "/api/v3/auth/oauth/tokens", kind: "drop")
            let marker = "pg_transporttestmarker0123456789"
            let error = await transportError {
                try await SoupTransport().send(HTTPRequest(
                    method: "POST", url: emulator.baseURL.appendingPathComponent("api/v3/auth/oauth/tokens"),
                    headers: ["x-portal-auth-environment-id": "local-dev", "Content-Type": "application/json",
                              "X-Test-Header": "header-marker"],
                    body: Data(#"{"token":"\#(marker)"}"#.utf8)))
            }
            #expect(error?.kind == .connectionLost)
            let message = error?.description ?? ""
            let mentionsRequest = message.contains(marker) || message.contains("header-marker") || message.contains("/api/v3")
            #expect(!mentionsRequest)
        }

        @Test func cancellingTheTaskCancelsTheRequest() async throws {
            try await emulator.fault(path: "/api/v3/auth/methods", kind: "hang", seconds: 8)
            let url = methodsURL
            let started = Date()
            let task = Task {
                try await SoupTransport().send(HTTPRequest(method: "GET", url: url,
                                                           headers: ["x-portal-auth-environment-id": "local-dev"]))
            }
            try await Task.sleep(nanoseconds: 300_000_000)
            task.cancel()
            let error = await transportError { try await task.value }
            #expect(error?.kind == .cancelled)
            #expect(Date().timeIntervalSince(started) < 5)
        }

        private func authorizeURL() async throws -> URL {
            var components = URLComponents(url: emulator.baseURL.appendingPathComponent("api/v3/auth/oauth/urls"),
                                           resolvingAgainstBaseURL: false)!
            components.percentEncodedQuery = "redirectUrl=io.github.portalauth.signin%3A%2F%2Fauth%2Fcallback"
            let response = try await SoupTransport().send(HTTPRequest(method: "GET", url: components.url!,
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
