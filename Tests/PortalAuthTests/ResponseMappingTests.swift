import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

@Suite("Mapping Portal's answers")
struct ResponseMappingTests {
    @Test func missingDataEnvelopeIsMalformed() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"allowedAuthMethods":["GOOGLE"]}"#)
        await #expect(throws: PortalAuthError.malformedResponse(path: "/api/v3/auth/methods", missing: "data")) {
            try await f.auth.getMethods()
        }
    }

    @Test(arguments: [#"{"data":null}"#, #"{"data":"x"}"#, #"[1,2]"#])
    func dataOfTheWrongShapeIsMalformed(body: String) async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(body)
        await #expect(throws: PortalAuthError.malformedResponse(path: "/api/v3/auth/oauth/tokens", missing: "data")) {
            try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        }
    }

    @Test(arguments: ["", "<html>", "{\"data\":"])
    func unparseableBodyIsCouldNotParse(body: String) async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(body)
        await #expect(throws: PortalRequestsError.couldNotParseHttpResponse(path: PortalWire.Path.methods)) {
            try await f.auth.getMethods()
        }
    }

    @Test func statusesMapToTheirErrors() async throws {
        let cases: [(Int, String, PortalRequestsError)] = [
            (401, Wire.error401, .unauthorized(path: PortalWire.Path.methods)),
            (403, #"{"error":"Forbidden"}"#, .clientError(status: 403, detail: #"{"error":"Forbidden"}"#)),
            (404, "Not Found", .clientError(status: 404, detail: "Not Found")),
            (500, "boom", .internalServerError(status: 500, detail: "boom")),
            (503, "", .internalServerError(status: 503, detail: "")),
            (302, "", .redirectError(status: 302, detail: "")),
            (100, "", .couldNotParseHttpResponse(path: PortalWire.Path.methods))
        ]
        for (status, body, expected) in cases {
            let f = try PortalCoreFixture()
            f.transport.reply(status, body)
            await #expect(throws: expected, "status \(status)") { try await f.auth.getMethods() }
        }
    }

    @Test func a429IsRateLimitedOnEveryEndpointWithItsRetryAfter() async throws {
        let f = try PortalCoreFixture()
        f.transport.enqueue(
            .response(HTTPResponse(status: 429, headers: ["Retry-After": "42"], body: Data(#"{"error":"slow down"}"#.utf8))))
        await #expect(throws: PortalAuthError.rateLimited(retryAfterSeconds: 42)) { try await f.auth.getMethods() }
        f.transport.reply(429, "")
        await #expect(throws: PortalAuthError.rateLimited(retryAfterSeconds: nil)) {
            try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        }
    }

    @Test func transportErrorsAreRethrownUnchanged() async throws {
        let f = try PortalCoreFixture()
        let error = TransportError(.cannotConnect, host: "127.0.0.1", detail: "Connection refused")
        f.transport.enqueue(.fail(error))
        await #expect(throws: error) { try await f.auth.getMethods() }
    }

    @Test func longErrorBodiesAreBounded() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(404, String(repeating: "z", count: 5000))
        do {
            _ = try await f.auth.getMethods()
            Issue.record("expected a client error")
        } catch PortalRequestsError.clientError(let status, let detail) {
            #expect(status == 404)
            #expect(detail.count == PortalAPI.maxBodyInMessage)
        }
    }
}
