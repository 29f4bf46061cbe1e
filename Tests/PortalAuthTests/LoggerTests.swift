import AuthTestSupport
import Testing

@testable import PortalAuth

@Suite("Logger lines")
struct LoggerTests {
    @Test func exchangeAndSaveAreLogged() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.session())
        _ = try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        #expect(f.logger.lines.contains("exchanging an OAuth grant"))
        #expect(f.logger.lines.contains("session saved for end user eu_1"))
        _ = try await f.auth.handleRedirect(PortalCoreFixture.redirect())
        #expect(f.logger.lines.contains("replaying an already exchanged grant"))
    }

    @Test func magicLinkTotpAndStoreProblemsAreLogged() async throws {
        let f = try PortalCoreFixture()
        f.transport.reply(Wire.totpStep())
        f.transport.reply(Wire.totpAccepted())
        f.store.failNextSave(SessionStoreError(.locked))
        _ = try await f.auth.handleRedirect(PortalCoreFixture.magicLinkRedirect())
        await #expect(throws: PortalAuthError.self) { try await f.auth.verifyTotp("123456", userJwt: Secrets.userJwt) }
        #expect(f.logger.lines.contains("exchanging a magic-link grant"))
        #expect(f.logger.lines.contains("a TOTP code is required for end user eu_totp; nothing saved"))
        #expect(f.logger.lines.contains("verifying a TOTP code"))
        #expect(f.logger.lines.contains("could not save the session: SessionStoreError.locked"))
        let leaked = f.logger.lines.contains(where: containsAnySecret)
        #expect(!leaked, "a secret appeared in a log line")
    }

    @Test func noLoggerIsFine() async throws {
        let transport = ScriptedTransport()
        transport.reply(Wire.session())
        let auth = try PortalAuth(
            authEnvironmentId: "local-dev", redirectUrl: PortalCoreFixture.redirectUrl, apiHost: "localhost:8790",
            transport: transport, sessionStore: InMemoryPortalSessionStore())
        #expect(try await auth.handleRedirect(PortalCoreFixture.redirect())?.authenticated != nil)
    }
}
