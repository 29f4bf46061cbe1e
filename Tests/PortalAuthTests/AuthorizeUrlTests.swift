import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

@Suite("loginWithGoogle / loginWithApple")
struct AuthorizeUrlTests {
    @Test func googleUrlIsReturnedTrimmed() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"data":{"google":"  https://accounts.example/authorize?state=s1 \n","apple":"https://apple.example/a"}}"#)
        #expect(try await f.auth.loginWithGoogle().authorizeUrl == "https://accounts.example/authorize?state=s1")
        let request = try #require(f.transport.requests.first)
        #expect(request.method == "GET")
        #expect(request.url.path == "/api/v3/auth/oauth/urls")
        #expect(request.query == "redirectUrl=io.github.portalauth.signin%3A%2F%2Fauth%2Fcallback")
    }

    @Test func appleUrlIsReturned() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        #expect(try await f.auth.loginWithApple().authorizeUrl == Wire.appleAuthorize)
    }

    @Test func everyCallFetchesAFreshUrl() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"data":{"google":"https://g.example/a?state=one"}}"#)
        f.transport.reply(#"{"data":{"google":"https://g.example/a?state=two"}}"#)
        #expect(try await f.auth.loginWithGoogle().authorizeUrl.hasSuffix("state=one"))
        #expect(try await f.auth.loginWithGoogle().authorizeUrl.hasSuffix("state=two"))
        #expect(f.transport.requests.count == 2)
    }

    @Test func missingGoogleKeyIsAuthMethodUnavailable() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"data":{"apple":"https://apple.example/a"}}"#)
        await #expect(throws: PortalAuthError.authMethodUnavailable(.google)) { try await f.auth.loginWithGoogle() }
    }

    @Test func blankAppleKeyIsAuthMethodUnavailable() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"data":{"google":"https://g.example/a","apple":"   "}}"#)
        await #expect(throws: PortalAuthError.authMethodUnavailable(.apple)) { try await f.auth.loginWithApple() }
    }

    @Test func aMethodFromTheTableFetchesItsProvidersUrl() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.authorizeUrls)
        #expect(try await f.auth.login(with: .apple).authorizeUrl == Wire.appleAuthorize)
    }

    @Test func emailLinksHaveNoAuthorizeUrlAndNothingIsSent() async throws {
        let f = try PortalCoreFixture()
        await #expect(throws: PortalAuthError.authMethodUnavailable(.emailMagicLink)) { try await f.auth.login(with: .emailMagicLink) }
        await #expect(throws: PortalAuthError.authMethodUnavailable(.emailMagicLink)) { try await f.auth.signIn(with: .emailMagicLink) }
        #expect(f.transport.requests.isEmpty)
        #expect(f.browser.openedURLs.isEmpty)
    }

    @Test(arguments: [true, false])
    func accountAbstractionIsSentWhenSet(value: Bool) async throws {
        let f = try PortalCoreFixture(isAccountAbstracted: value)
        f.transport.reply(Wire.authorizeUrls)
        _ = try await f.auth.loginWithGoogle()
        #expect(
            f.transport.requests.first?.query
                == "redirectUrl=io.github.portalauth.signin%3A%2F%2Fauth%2Fcallback&isAccountAbstracted=\(value)")
    }

    @Test func accountAbstractionRefusalIsMapped() async throws {
        let f = try PortalCoreFixture(isAccountAbstracted: true)
        f.transport.reply(400, #"{"error":"Gas sponsorship is not enabled"}"#)
        await #expect(throws: PortalAuthError.accountAbstractionUnavailable(message: "Gas sponsorship is not enabled")) {
            try await f.auth.loginWithGoogle()
        }
    }

    @Test(arguments: [nil, false] as [Bool?])
    func a400WithErrorUnaskedIsAClientError(isAccountAbstracted: Bool?) async throws {
        let f = try PortalCoreFixture(isAccountAbstracted: isAccountAbstracted)
        f.transport.reply(400, #"{"error":"redirectUrl is not allowed"}"#)
        await #expect(throws: PortalRequestsError.clientError(status: 400, detail: #"{"error":"redirectUrl is not allowed"}"#)) {
            try await f.auth.loginWithGoogle()
        }
    }

    @Test func redirectNotAllowListedIsUnauthorized() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(401, Wire.error401)
        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.oauthUrls)) { try await f.auth.loginWithApple() }
    }
}
