import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

@Suite("sendMagicLink")
struct SendMagicLinkTests {
    @Test func withoutConfigIsMagicLinkNotConfigured() async throws {
        let f = try PortalCoreFixture(magicLink: nil)
        await #expect(throws: PortalAuthError.magicLinkNotConfigured) { try await f.auth.sendMagicLink("a@example.com") }
        #expect(f.transport.requests.isEmpty)
    }

    @Test func blankEmailIsInvalidArgument() async throws {
        let f = try PortalCoreFixture()
        await #expect(throws: PortalAuthError.invalidArgument(name: "email")) { try await f.auth.sendMagicLink(" \n ") }
        #expect(f.transport.requests.isEmpty)
    }

    @Test func emailIsTrimmedAndLowercasedAndTheBodyIsComplete() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"data":{"sent":true}}"#)
        try await f.auth.sendMagicLink("  Alice@Example.COM ")
        let request = try #require(f.transport.requests.first)
        #expect(request.method == "POST")
        #expect(request.url.path == "/api/v3/auth/magic-links")
        let body = request.jsonBody
        #expect(body["email"] as? String == "alice@example.com")
        #expect(body["redirectUrl"] as? String == PortalCoreFixture.redirectUrl)
        #expect(body["fromEmail"] as? String == "login@example.com")
        #expect(body["templateId"] as? String == "tpl_1")
        #expect(body["isAccountAbstracted"] == nil)
        #expect(body.count == 4)
    }

    @Test func accountAbstractionIsSentWhenSet() async throws {
        let f = try PortalCoreFixture(isAccountAbstracted: true)
        f.transport.reply(#"{"data":{"sent":true}}"#)
        try await f.auth.sendMagicLink("a@example.com")
        #expect(f.transport.requests.first?.jsonBody["isAccountAbstracted"] as? Bool == true)
    }

    @Test func status429IsRateLimited() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(429, #"{"error":"Too many requests"}"#)
        await #expect(throws: PortalAuthError.rateLimited(retryAfterSeconds: nil)) {
            try await f.auth.sendMagicLink("a@example.com")
        }
    }

    @Test func status400WithErrorIsAccountAbstractionUnavailable() async throws {
        let f = try PortalCoreFixture(isAccountAbstracted: true)
        f.transport.reply(400, #"{"error":"Account abstraction is not configured"}"#)
        await #expect(throws: PortalAuthError.accountAbstractionUnavailable(message: "Account abstraction is not configured")) {
            try await f.auth.sendMagicLink("a@example.com")
        }
    }

    /// Only a request that asked for account abstraction can be refused for it: any other 400 with
    /// an error body (a malformed email…) stays the client error it is.
    @Test(arguments: [nil, false] as [Bool?])
    func status400WithErrorUnaskedIsAClientError(isAccountAbstracted: Bool?) async throws {
        let f = try PortalCoreFixture(isAccountAbstracted: isAccountAbstracted)
        f.transport.reply(400, #"{"error":"Invalid email"}"#)
        await #expect(throws: PortalRequestsError.clientError(status: 400, detail: #"{"error":"Invalid email"}"#)) {
            try await f.auth.sendMagicLink("a@example.com")
        }
    }

    @Test func status400WithoutErrorBodyIsAClientError() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(400, "bad")
        await #expect(throws: PortalRequestsError.clientError(status: 400, detail: "bad")) {
            try await f.auth.sendMagicLink("a@example.com")
        }
    }

    @Test func failuresAreNeverRetried() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(503, "down")
        f.transport.reply(#"{"data":{"sent":true}}"#)
        await #expect(throws: PortalRequestsError.internalServerError(status: 503, detail: "down")) {
            try await f.auth.sendMagicLink("a@example.com")
        }
        #expect(f.transport.requests.count == 1)
    }
}
