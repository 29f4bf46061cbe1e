import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

@Suite("getMethods")
struct GetMethodsTests {
    @Test func readsAllowedMethodsAndWalletFlag() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"data":{"allowedAuthMethods":["EMAIL_MAGIC_LINK","GOOGLE","APPLE"],"autoCreateWallet":true}}"#)
        let methods = try await f.auth.getMethods()
        #expect(methods.allowedAuthMethods == [.emailMagicLink, .google, .apple])
        #expect(methods.autoCreateWallet)
        let request = try #require(f.transport.requests.first)
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == "http://127.0.0.1:8790/api/v3/auth/methods")
        #expect(request.body == nil)
    }

    @Test func unknownMethodsAreDroppedAndMissingWalletFlagIsFalse() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"data":{"allowedAuthMethods":["PASSKEY","GOOGLE","google"]}}"#)
        let methods = try await f.auth.getMethods()
        #expect(methods.allowedAuthMethods == [.google])
        #expect(methods.autoCreateWallet == false)
    }

    @Test func missingListIsEmpty() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(#"{"data":{}}"#)
        #expect(try await f.auth.getMethods() == AuthMethodsResult(allowedAuthMethods: [], autoCreateWallet: false))
    }

    @Test func unknownEnvironmentIsUnauthorized() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(401, Wire.error401)
        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.methods)) { try await f.auth.getMethods() }
    }
}
