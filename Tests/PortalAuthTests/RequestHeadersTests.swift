import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

@Suite("Headers every request carries")
struct RequestHeadersTests {
    @Test func environmentTraceAndJSONHeadersWithAFreshTraceIdEachTime() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"data":{}}"#)
        f.transport.reply(#"{"data":{}}"#)
        _ = try await f.auth.getMethods()
        _ = try await f.auth.getMethods()
        let requests = f.transport.requests
        try #require(requests.count == 2)
        for request in requests {
            #expect(request.headers["x-portal-auth-environment-id"] == "local-dev")
            #expect(request.headers["Accept"] == "application/json")
            #expect(request.headers["Content-Type"] == "application/json")
            #expect(request.headers["Authorization"] == nil)
            #expect(UUID(uuidString: request.headers["X-Portal-Trace-Id"] ?? "") != nil)
        }
        #expect(requests[0].headers["X-Portal-Trace-Id"] != requests[1].headers["X-Portal-Trace-Id"])
    }

    @Test func jsonBodiesAreJSONWithUnescapedSlashes() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"data":{"sent":true}}"#)
        try await f.auth.sendMagicLink("a@example.com")
        let text = try #require(f.transport.requests.first?.bodyText)
        #expect(
            text
                == #"{"email":"a@example.com","fromEmail":"login@example.com","redirectUrl":"io.github.portalauth.signin://auth/callback","templateId":"tpl_1"}"#
        )
    }
}
