import AuthTestSupport
import Foundation
import Testing

@testable import TurnkeyAuth

/// Every error path, fed session JWTs, OIDC tokens, codes, verifiers and private keys: none may
/// reach a message or a log line.
@Suite("No Turnkey secret in errors or logs", .timeLimit(.minutes(1)))
struct TurnkeySecretLeakTests {
    private func texts(of error: any Error) -> [String] {
        [String(describing: error), error.localizedDescription, (error as? any LocalizedError)?.errorDescription ?? ""]
    }

    @Test func everyErrorPathKeepsSecretsOut() async throws {
        let f = try TurnkeyCoreFixture()
        let echo = TK.error(
            16,
            "refused \(Secrets.oidcToken) \(Secrets.turnkeySessionJwt) \(Secrets.pkceVerifier) \(Secrets.privateKeyHex) \(Secrets.providerCode)"
        )
        var errors: [any Error] = []
        func collect(_ label: String, _ body: () async throws -> Void) async {
            do {
                try await body()
                Issue.record("\(label): expected an error")
            } catch {
                let leaked = texts(of: error).contains(where: containsAnySecret)
                #expect(!leaked, "\(label): a secret appeared in the error text")
                errors.append(error)
            }
        }

        let session = try await f.signIn(sessionKey: "main")
        let discord = try await f.startSignIn(.discord)
        for status in [400, 401, 429, 500] {
            f.transport.reply(status, echo)
            await collect("code exchange answered \(status)") {
                _ = try await f.auth.handleRedirect(TurnkeyCoreFixture.codeCallback(state: discord.state), sessionKey: "other")
            }
        }
        await collect("provider error echoing secrets") {
            _ = try await f.auth.handleRedirect(
                TurnkeyCoreFixture.appRedirect + "?error=\(Secrets.providerCode)+\(Secrets.oidcToken)&state=\(discord.state)")
        }
        await collect("unknown state") { _ = try await f.auth.handleRedirect(TurnkeyCoreFixture.codeCallback(state: Secrets.pkceVerifier)) }
        let google = try await f.startSignIn(.google)
        await collect("nonce mismatch") {
            _ = try await f.auth.handleRedirect(
                TurnkeyCoreFixture.idTokenCallback(Secrets.oidcToken, state: google.state), sessionKey: "other")
        }
        await collect("keyAlreadyExists") {
            _ = try await f.auth.completeOAuth(oidcToken: Secrets.oidcToken, publicKey: session.session.publicKey, sessionKey: "main")
        }
        await collect("keyNotFound") { _ = try await f.auth.completeOAuth(oidcToken: Secrets.oidcToken, publicKey: Secrets.publicKeyHex) }
        await collect("invalid token") {
            _ = try await f.auth.completeOAuth(oidcToken: Secrets.privateKeyHex, publicKey: session.session.publicKey)
        }
        struct Leaky: Error, CustomStringConvertible {
            var description: String { "leaky \(Secrets.turnkeySessionJwt) \(Secrets.privateKeyHex)" }
        }
        f.keys.items.failNext("load", Leaky())
        await collect("key store failure") { _ = try await f.auth.whoami(sessionKey: "main") }
        f.transport.reply(401, echo)
        await collect("whoami refused") { _ = try await f.auth.whoami(sessionKey: "main") }
        f.transport.reply(TK.activity(status: "ACTIVITY_STATUS_FAILED", session: Secrets.turnkeySessionJwt))
        await collect("refresh failed") { _ = try await f.auth.refreshSession(sessionKey: "main") }
        f.transport.reply(200, "\(Secrets.turnkeySessionJwt) is not JSON")
        await collect("unreadable") { _ = try await f.auth.refreshSession(sessionKey: "main") }

        #expect(errors.count == 14)
        let leakedInLogs = f.logger.lines.contains(where: containsAnySecret)
        #expect(!leakedInLogs, "a secret appeared in a log line")
        #expect(f.logger.lines.count > 10)
    }

    @Test func successfulFlowsLogNoSecret() async throws {
        let f = try TurnkeyCoreFixture()
        for provider in TurnkeyProvider.allCases { try await f.signIn(provider, sessionKey: provider.rawValue) }
        let login = try await f.startSignIn(.discord)
        f.transport.reply(TK.oauth2(TK.oidcToken(for: login.publicKey)))
        _ = try await f.auth.handleRedirect(TurnkeyCoreFixture.codeCallback(state: login.state)) { _ in }
        f.transport.enqueue(
            .answer { request in
                let key = (request.jsonBody["parameters"] as? [String: Any])?["publicKey"] as? String ?? ""
                return (200, TK.activity(session: TK.sessionJwt(publicKey: key)))
            })
        _ = try await f.auth.refreshSession(sessionKey: "google")
        f.transport.reply(TK.whoami)
        _ = try await f.auth.whoami(sessionKey: "x")
        try await f.auth.signOut(sessionKey: "apple")
        try await f.auth.purgeExpired()
        let secrets =
            Array(f.sessions.items.items.values) + Array(f.keys.items.items.values)
            + f.pending.records.values.compactMap { $0["codeVerifier"] as? String }
        #expect(secrets.count >= 8)
        let leaked = f.logger.lines.contains { line in containsAnySecret(line) || secrets.contains { line.contains($0) } }
        #expect(!leaked, "a secret appeared in a log line")
        #expect(f.logger.lines.count >= 20)
    }

    @Test func valuesThatHoldSecretsDescribeThemselvesWithout() throws {
        let success = OAuthSuccess(oidcToken: Secrets.oidcToken, providerName: "google", publicKey: Secrets.publicKeyHex)
        expectNoSecret(success.description, "OAuthSuccess")
        let session = try TurnkeySession(jwt: Secrets.turnkeySessionJwt, sessionKey: "default")
        expectNoSecret(session.description, "TurnkeySession")
        expectNoSecret(
            String(describing: SigningKey(privateKey: Hex.decode(Secrets.privateKeyHex)!, publicKeyHex: Secrets.publicKeyHex)),
            "SigningKey")
        let built: [any Error] = [
            TurnkeyAuthError.providerError(.x, error: Secrets.providerCode),
            TurnkeyAuthError.storageFailure(.key, SessionStoreError(.other, detail: Secrets.privateKeyHex)),
            TurnkeyAuthError.invalidOidcToken(detail: Secrets.oidcToken),
            TurnkeyRequestError.unauthorized(path: "/v1/oauth_login", message: Secrets.pkceVerifier),
            TurnkeyRequestError.rejected(status: 400, path: "/", code: 3, message: Secrets.turnkeySessionJwt)
        ]
        for error in built {
            expectNoSecret((error as? any LocalizedError)?.errorDescription ?? "", "description")
            #expect(error.localizedDescription.contains(SecretRedaction.placeholder))
        }
    }
}
