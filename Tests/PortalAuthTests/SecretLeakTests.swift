import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

/// Every error path, fed grants, session tokens and JWTs: none may reach a message or a log line.
@Suite("No secret in errors or logs")
struct SecretLeakTests {
    private func texts(of error: any Error) -> [String] {
        var all = [String(describing: error), error.localizedDescription, "\(error)"]
        if let localized = (error as? any LocalizedError)?.errorDescription { all.append(localized) }
        // The facts themselves, not only the description: the CLI and the app show some of them
        // (authenticationFailed's reason) in their own words.
        all += facts(of: error)
        return all
    }

    /// The associated values of an error case, however deeply nested, as text.
    private func facts(of value: Any) -> [String] {
        Mirror(reflecting: value).children.flatMap { child in
            [String(describing: child.value)] + facts(of: child.value)
        }
    }

    /// Runs `body`, which must throw, and checks every text of the error.
    private func expectCleanError(_ label: String, _ body: () async throws -> Void) async -> (any Error)? {
        do {
            try await body()
            Issue.record("\(label): expected an error")
            return nil
        } catch {
            let leaked = texts(of: error).contains(where: containsAnySecret)
            #expect(!leaked, "\(label): a secret appeared in the error text")
            return error
        }
    }

    @Test func everyErrorPathKeepsSecretsOut() async throws {
        let f = try PortalCoreFixture(isAccountAbstracted: true)
        let echo = #"{"error":"bad token \#(Secrets.grant) for \#(Secrets.sessionToken) and \#(Secrets.userJwt)"}"#
        var errors: [any Error] = []

        func collect(_ label: String, _ body: () async throws -> Void) async {
            if let error = await expectCleanError(label, body) { errors.append(error) }
        }

        await collect("authenticationFailed with a grant") {
            _ = try await f.auth.handleRedirect(
                "\(PortalCoreFixture.redirectUrl)?token=\(Secrets.grant)&login_type=GOOGLE&error=\(Secrets.grant)")
        }
        await collect("authenticationFailed with a jwt") {
            _ = try await f.auth.handleRedirect("\(PortalCoreFixture.redirectUrl)?error=oops+\(Secrets.userJwt)")
        }
        for status in [302, 403, 404, 429, 500, 503] {
            f.transport.reply(status, echo)
            await collect("status \(status) echoing secrets") { _ = try await f.auth.handleRedirect(PortalCoreFixture.redirect()) }
        }
        f.transport.reply(400, echo)
        await collect("accountAbstractionUnavailable echoing secrets") { try await f.auth.sendMagicLink("a@example.com") }
        f.transport.reply(400, echo)
        await collect("oauth urls refusal echoing secrets") { _ = try await f.auth.loginWithGoogle() }
        f.transport.reply(401, echo)
        await collect("unauthorized") { _ = try await f.auth.handleRedirect(PortalCoreFixture.redirect()) }
        f.transport.reply(#"{"data":{"clientSessionToken":"\#(Secrets.sessionToken)"}}"#)
        await collect("malformedResponse") { _ = try await f.auth.handleRedirect(PortalCoreFixture.magicLinkRedirect()) }
        f.transport.reply(#"{"data":{"endUserId":"eu_1"}}"#)
        await collect("invalidGrantResponse") { _ = try await f.auth.handleRedirect(PortalCoreFixture.redirect()) }
        f.transport.reply("\(Secrets.sessionToken) is not JSON")
        await collect("couldNotParse") { _ = try await f.auth.handleRedirect(PortalCoreFixture.redirect()) }

        f.transport.reply(Wire.session())
        f.store.failNextSave(SessionStoreError(.other, detail: "could not write \(PortalCoreFixture.storedSecret())"))
        await collect("sessionStorageFailure on save") {
            _ = try await f.auth.handleRedirect(PortalCoreFixture.redirect(grant: Secrets.otherGrant))
        }
        struct Leaky: Error, CustomStringConvertible { var description: String { "leaky \(Secrets.sessionToken)" } }
        f.store.failNextLoad(Leaky())
        await collect("sessionStorageFailure on load") { _ = try await f.auth.restoreSession() }

        for jwt in [
            "eyJhbGciOiJIUzI1NiJ9", Secrets.jwt(claims: ["sub": Secrets.sessionToken]),
            Secrets.jwt(claims: ["endUserId": 1]), "eyJhbGciOiJIUzI1NiJ9.eyJ!!!.sig"
        ] {
            await collect("invalidUserJwt") { _ = try await f.auth.verifyTotp("123456", userJwt: jwt) }
        }
        f.transport.reply(401, echo)
        await collect("wrong TOTP code") { _ = try await f.auth.verifyTotp("123456", userJwt: Secrets.userJwt) }
        f.transport.reply(#"{"data":{"clientId":"\#(Secrets.sessionToken)"}}"#)
        await collect("TOTP answer without token") { _ = try await f.auth.verifyTotp("123456", userJwt: Secrets.userJwt) }

        let noBrowser = try PortalCoreFixture(withBrowser: false)
        await collect("sign-in unavailable") { _ = try await noBrowser.auth.signInWithGoogle() }

        let session = PortalSession(clientSessionToken: Secrets.sessionToken, endUserId: "eu_1")
        session.invalidate()
        await collect("sessionInvalidated") { _ = try session.getToken() }
        let clientTransport = ScriptedTransport()
        clientTransport.reply(401, echo)
        let client = try PortalClient(
            session: PortalSession(clientSessionToken: Secrets.sessionToken, endUserId: "eu_1"),
            apiHost: "127.0.0.1:8790", authEnvironmentId: "local-dev", transport: clientTransport)
        await collect("client unauthorized") { _ = try await client.getClient() }

        #expect(errors.count >= 22)
        let leakedInLogs = (f.logger.lines + noBrowser.logger.lines).contains(where: containsAnySecret)
        #expect(!leakedInLogs, "a secret appeared in a log line")
        #expect(!f.logger.lines.isEmpty)
    }

    @Test func errorsBuiltWithSecretsStillDescribeThemRedacted() {
        let built: [any Error] = [
            PortalAuthError.authenticationFailed(error: Secrets.grant),
            PortalAuthError.sessionStorageFailure(SessionStoreError(.other, detail: Secrets.sessionToken)),
            PortalAuthError.accountAbstractionUnavailable(message: Secrets.userJwt),
            PortalRequestsError.clientError(status: 400, detail: Secrets.grant),
            PortalRequestsError.internalServerError(status: 500, detail: Secrets.sessionToken),
            PortalRequestsError.redirectError(status: 302, detail: Secrets.userJwt),
            SessionStoreError(.other, detail: "value \(Secrets.sessionToken)")
        ]
        for error in built {
            let localized = (error as? any LocalizedError)?.errorDescription ?? ""
            expectNoSecret(localized, "description")
            expectNoSecret(error.localizedDescription, "description")
            let redacted = localized.contains(SecretRedaction.placeholder)
            #expect(redacted, "the secret was not replaced by the placeholder")
        }
    }

    @Test func redactionKeepsOrdinaryText() {
        #expect(SecretRedaction.redact("oauth_failed: try again (401)") == "oauth_failed: try again (401)")
        #expect(SecretRedaction.redact("token=\(Secrets.grant)&x=1") == "token=[redacted]&x=1")
        #expect(SecretRedaction.redact("Bearer \(Secrets.userJwt)") == "Bearer [redacted]")
    }
}
