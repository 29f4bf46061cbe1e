import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

@Suite("handleRedirect: order of the checks and routing", .timeLimit(.minutes(1)))
struct PortalHandleRedirectTests {
    @Test func emptyURLReturnsNilWithoutARequest() async throws {
        let f = try PortalCoreFixture()
        #expect(try await f.auth.handleRedirect("") == nil)
        #expect(f.transport.requests.isEmpty)
    }

    @Test func aRedirectUrlWithoutAnAuthorityMatchesWhateverItsCase() async throws {
        let f = try PortalCoreFixture(redirectUrl: "com.example.App:/Auth/Callback")
        f.transport.reply(Wire.session())
        let result = try await f.auth.handleRedirect("COM.EXAMPLE.APP:/auth/CALLBACK?token=\(Secrets.grant)&login_type=GOOGLE")
        #expect(result?.authenticated != nil)
        #expect(f.transport.paths == ["/api/v3/auth/oauth/tokens"])
        #expect(try await f.auth.handleRedirect("com.example.app:/auth/callback/other?token=\(Secrets.grant)&login_type=GOOGLE") == nil)
    }

    @Test func urlOver8192UTF16UnitsReturnsNilUnparsed() async throws {
        let f = try PortalCoreFixture()
        let base = PortalCoreFixture.redirect()
        let padded = base + "&pad=" + String(repeating: "é", count: 8193 - base.utf16.count - 5)
        #expect(padded.utf16.count == 8193)
        // Even an error= in an oversized URL is not looked at.
        #expect(try await f.auth.handleRedirect(padded + "&error=x") == nil)
        #expect(f.transport.requests.isEmpty)
    }

    @Test func urlOfExactly8192UnitsIsProcessed() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        let base = PortalCoreFixture.redirect() + "&pad="
        let url = base + String(repeating: "a", count: 8192 - base.utf16.count)
        #expect(url.utf16.count == 8192)
        #expect(try await f.auth.handleRedirect(url)?.authenticated != nil)
        #expect(f.transport.paths == ["/api/v3/auth/oauth/tokens"])
    }

    /// The bound counts UTF-16 code units, as Portal's other SDKs do: not bytes, not Characters,
    /// not Unicode scalars. Each URL here is on the right side of the bound by one count and on the
    /// wrong side by another.
    static let boundaryURLs: [String: (url: String, processed: Bool)] = {
        let base = PortalCoreFixture.redirect() + "&pad="
        // "é" is one unit but two bytes: 8192 units, 8292 bytes.
        let twoByte = base + String(repeating: "\u{E9}", count: 100)
        let exactly = twoByte + String(repeating: "a", count: 8192 - twoByte.utf16.count)
        // An emoji is two units but one Character and one scalar: 8193 units, 8192 Characters.
        let emoji = base + "\u{1F600}"
        let over = emoji + String(repeating: "a", count: 8193 - emoji.utf16.count)
        // "e" + U+0301 is two units and two scalars but one Character: 8193 units, fewer Characters.
        let combining = base + String(repeating: "e\u{301}", count: 10)
        let overByMarks = combining + String(repeating: "a", count: 8193 - combining.utf16.count)
        return [
            "8192 units, 8292 bytes": (exactly, true), "8193 units, 8192 characters": (over, false),
            "8193 units, 8183 characters": (overByMarks, false)
        ]
    }()

    @Test(arguments: ["8192 units, 8292 bytes", "8193 units, 8192 characters", "8193 units, 8183 characters"])
    func theBoundCountsUTF16Units(label: String) async throws {
        let (url, processed) = try #require(Self.boundaryURLs[label])
        #expect(url.utf16.count == (processed ? 8192 : 8193))
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        #expect((f.auth.incomingRedirect(url) != nil) == processed)
        #expect((try await f.auth.handleRedirect(url) != nil) == processed)
        #expect(f.transport.requests.count == (processed ? 1 : 0))
    }

    @Test func urlForAnotherRedirectReturnsNil() async throws {
        let f = try PortalCoreFixture()
        #expect(try await f.auth.handleRedirect("other.app://auth/callback?token=\(Secrets.grant)&login_type=GOOGLE") == nil)
        #expect(
            try await f.auth.handleRedirect("io.github.portalauth.signin://auth/Callback?token=\(Secrets.grant)&login_type=GOOGLE") == nil)
        #expect(f.transport.requests.isEmpty)
    }

    @Test func errorParameterThrowsBeforeAnyRequestEvenWithAToken() async throws {
        let f = try PortalCoreFixture()
        await #expect(throws: PortalAuthError.authenticationFailed(error: "oauth_failed")) {
            try await f.auth.handleRedirect(PortalCoreFixture.redirect() + "&error=oauth_failed")
        }
        #expect(f.transport.requests.isEmpty)
        #expect(!f.store.touched)
    }

    @Test func errorValueIsCappedAt100Characters() async throws {
        let f = try PortalCoreFixture()
        let long = String(repeating: "x", count: 250)
        await #expect(throws: PortalAuthError.authenticationFailed(error: String(repeating: "x", count: 100))) {
            try await f.auth.handleRedirect("\(PortalCoreFixture.redirectUrl)?error=\(long)")
        }
    }

    @Test func errorOnAnotherRedirectIsNotOurs() async throws {
        let f = try PortalCoreFixture()
        #expect(try await f.auth.handleRedirect("other.app://cb?error=oauth_failed") == nil)
    }

    @Test func missingOrEmptyTokenReturnsNil() async throws {
        let f = try PortalCoreFixture()
        #expect(try await f.auth.handleRedirect("\(PortalCoreFixture.redirectUrl)?login_type=GOOGLE") == nil)
        #expect(try await f.auth.handleRedirect("\(PortalCoreFixture.redirectUrl)?token=&login_type=GOOGLE") == nil)
        #expect(f.transport.requests.isEmpty)
    }

    @Test(arguments: ["GOOGLE", "APPLE"])
    func oauthGrantGoesToOAuthTokens(loginType: String) async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        let result = try await f.auth.handleRedirect(PortalCoreFixture.redirect(loginType: loginType))
        #expect(result?.authenticated?.session.endUserId == "eu_1")
        let request = try #require(f.transport.requests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "http://127.0.0.1:8790/api/v3/auth/oauth/tokens")
        let sentGrant = request.jsonBody["token"] as? String == Secrets.grant
        #expect(sentGrant, "the grant was not posted as {\"token\":…}")
        #expect(request.jsonBody.count == 1)
    }

    @Test func magicLinkGrantGoesToValidations() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        _ = try await f.auth.handleRedirect(PortalCoreFixture.magicLinkRedirect())
        #expect(f.transport.requests.map(\.method) == ["POST"])
        #expect(f.transport.paths == ["/api/v3/auth/magic-links/validations"])
        let sentGrant = f.transport.requests.first?.jsonBody["token"] as? String == Secrets.grant
        #expect(sentGrant, "the grant was not posted")
    }

    @Test func magicLinkMarkerWinsOverLoginType() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        _ = try await f.auth.handleRedirect(PortalCoreFixture.magicLinkRedirect() + "&login_type=GOOGLE")
        #expect(f.transport.paths == ["/api/v3/auth/magic-links/validations"])
    }

    @Test(arguments: ["login_type=google", "login_type=FACEBOOK", "authMethod=email_magic_link", "authMethod=GOOGLE", "x=y"])
    func unknownMarkerReturnsNil(marker: String) async throws {
        let f = try PortalCoreFixture()
        #expect(try await f.auth.handleRedirect("\(PortalCoreFixture.redirectUrl)?token=\(Secrets.grant)&\(marker)") == nil)
        #expect(f.transport.requests.isEmpty)
    }

    @Test(arguments: ["authMethod=EMAIL_MAGIC_LIN%E2%84%AA", "authMethod=EMAIL_MAGIC_LIN\u{212A}", "login_type=GOOGLE%CC%81"])
    func markersCompareByteForByte(marker: String) async throws {
        // Found by the fuzzer: U+212A KELVIN SIGN is canonically equivalent to "K", and Swift's == agreed.
        let f = try PortalCoreFixture()
        let url = "\(PortalCoreFixture.redirectUrl)?token=\(Secrets.grant)&\(marker)"
        #expect(f.auth.incomingRedirect(url) == nil)
        #expect(try await f.auth.handleRedirect(url) == nil)
        #expect(f.transport.requests.isEmpty)
    }

    @Test func urlOverloadForwardsAbsoluteStringSoTheGrantIsDecodedOnce() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        let url = try #require(URL(string: "\(PortalCoreFixture.redirectUrl)?token=pg_abc%2Bdef%2520&login_type=APPLE"))
        _ = try await f.auth.handleRedirect(url)
        #expect(f.transport.requests.first?.jsonBody["token"] as? String == "pg_abc+def%20")
    }

    @Test func redirectWithWhitespaceAndTrailingSlashStillMatches() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        let result = try await f.auth.handleRedirect(
            "  IO.GITHUB.PORTALAUTH.SIGNIN://AUTH/callback/?token=\(Secrets.grant)&login_type=GOOGLE  ")
        #expect(result?.authenticated != nil)
        let sentGrant = f.transport.requests.first?.jsonBody["token"] as? String == Secrets.grant
        #expect(sentGrant, "trailing whitespace must not reach the grant")
    }

    @Test func alreadyCancelledCallerSendsNothing() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(f.transport.requests.isEmpty)
        #expect(f.store.isEmpty)
    }

    @Test func cancellationAfterTheExchangeStartedDoesNotAbortIt() async throws {
        let f = try PortalCoreFixture()
        let arrived = Signal()
        let release = Signal()
        f.transport.enqueue(.held(arrived: arrived, release: release, status: 200, body: Wire.session()))
        let task = Task { try await f.auth.handleRedirect(PortalCoreFixture.redirect()) }
        await arrived.wait()
        task.cancel()
        release.fire()
        let result = try await task.value
        #expect(result?.authenticated?.session.endUserId == "eu_1")
        expectSameSecret(f.store.stored(), PortalCoreFixture.storedSecret(), "stored session")
    }
}
