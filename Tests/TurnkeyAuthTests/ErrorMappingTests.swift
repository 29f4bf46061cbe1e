import AuthTestSupport
import Foundation
import Testing

@testable import TurnkeyAuth

@Suite("Turnkey's error shape and statuses as facts", .timeLimit(.minutes(1)))
struct ErrorMappingTests {
    private func providersError(_ status: Int, _ body: String, headers: [String: String] = [:]) async throws -> (any Error)? {
        let f = try TurnkeyCoreFixture()
        f.transport.enqueue(.response(HTTPResponse(status: status, headers: headers, body: Data(body.utf8))))
        do {
            _ = try await f.auth.providers()
            return nil
        } catch {
            return error
        }
    }

    @Test func statusesAndTheTurnkeyErrorBodyBecomeFacts() async throws {
        let unauthorized = try await providersError(401, TK.error(16, "unknown auth proxy config ID"))
        #expect(
            unauthorized as? TurnkeyRequestError == .unauthorized(path: "/v1/wallet_kit_config", message: "unknown auth proxy config ID"))
        let rejected = try await providersError(400, TK.error(3, "bad request"))
        #expect(rejected as? TurnkeyRequestError == .rejected(status: 400, path: "/v1/wallet_kit_config", code: 3, message: "bad request"))
        let limited = try await providersError(429, "{}", headers: ["Retry-After": "12"])
        #expect(limited as? TurnkeyRequestError == .rateLimited(path: "/v1/wallet_kit_config", retryAfterSeconds: 12))
        let server = try await providersError(503, "<html>down</html>")
        #expect(server as? TurnkeyRequestError == .serverError(status: 503, path: "/v1/wallet_kit_config", message: ""))
        let redirect = try await providersError(302, "")
        #expect(redirect as? TurnkeyRequestError == .unexpectedStatus(status: 302, path: "/v1/wallet_kit_config"))
        let notJSON = try await providersError(200, "<html>")
        #expect(notJSON as? TurnkeyRequestError == .unreadableResponse(path: "/v1/wallet_kit_config"))
        let notAnObject = try await providersError(200, "[1]")
        #expect(notAnObject as? TurnkeyRequestError == .unreadableResponse(path: "/v1/wallet_kit_config"))
    }

    @Test func longMessagesAreBounded() async throws {
        let error = try await providersError(400, TK.error(3, String(repeating: "w ", count: 400)))
        guard case .rejected(_, _, _, let message)? = error as? TurnkeyRequestError else {
            Issue.record("expected a rejection")
            return
        }
        #expect(message.count == TurnkeyHTTP.maxMessageLength)
    }

    @Test func transportFailuresPassThroughUnchanged() async throws {
        let f = try TurnkeyCoreFixture()
        let failure = TransportError(.cannotConnect, host: "127.0.0.1", detail: "Connection refused")
        f.transport.enqueue(.fail(failure))
        await #expect(throws: failure) { try await f.auth.providers() }
    }
}
