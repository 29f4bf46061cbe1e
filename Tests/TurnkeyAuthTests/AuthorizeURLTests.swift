import AuthTestSupport
import Foundation
import Testing

@testable import TurnkeyAuth

@Suite("loginURL: the authorize URL per provider and what is kept for the callback", .timeLimit(.minutes(1)))
struct AuthorizeURLTests {
    @Test(arguments: [TurnkeyProvider.google, .apple])
    func oidcProvidersGoThroughTheOriginPageWithNonceAndState(provider: TurnkeyProvider) async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(provider, additionalState: ["flow": "desktop", "lang": "de"])
        let url = login.authorizeUrl
        #expect(url.absoluteString.hasPrefix("http://127.0.0.1:8790/turnkey/oauth-origin?"))
        #expect(url.queryItems.map(\.0) == ["provider", "clientId", "redirectUri", "nonce", "state", "flow", "lang"])
        #expect(url.query("provider") == provider.rawValue)
        #expect(url.query("clientId") == "emulator-turnkey-\(provider.rawValue)")
        #expect(url.query("redirectUri") == "http://127.0.0.1:8790/turnkey/oauth-redirect?scheme=io.github.portalauth.signin")
        // Java-encoded, as the allow lists compare it.
        #expect(
            url.absoluteString.contains(
                "redirectUri=http%3A%2F%2F127.0.0.1%3A8790%2Fturnkey%2Foauth-redirect%3Fscheme%3Dio.github.portalauth.signin&"))
        #expect(url.query("nonce") == TK.nonce(login.publicKey))
        #expect(url.query("state") == login.state)
        #expect(url.query("flow") == "desktop" && url.query("lang") == "de")
        #expect(login.provider == provider)
        #expect(f.transport.paths == ["/turnkey/auth-proxy/v1/wallet_kit_config"])
    }

    @Test(arguments: [(TurnkeyProvider.discord, "identify%20email"), (.x, "tweet.read%20users.read")])
    func pkceProvidersGoStraightToTheProviderWithS256(provider: TurnkeyProvider, scope: String) async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(provider, additionalState: ["ignored": "yes"])
        let url = login.authorizeUrl
        #expect(url.absoluteString.hasPrefix("http://127.0.0.1:8790/idp/\(provider.rawValue)/authorize?"))
        #expect(
            url.queryItems.map(\.0) == [
                "client_id", "redirect_uri", "response_type", "code_challenge",
                "code_challenge_method", "scope", "state"
            ])
        #expect(url.absoluteString.contains("redirect_uri=io.github.portalauth.signin%3A%2F%2F&"))
        #expect(url.absoluteString.contains("&scope=\(scope)&"))
        #expect(url.query("client_id") == "emulator-turnkey-\(provider.rawValue)")
        #expect(url.query("response_type") == "code")
        #expect(url.query("code_challenge_method") == "S256")
        #expect(url.query("state") == login.state)
        #expect(url.query("nonce") == nil && url.query("ignored") == nil)

        let record = try #require(f.pending.records[login.state])
        let verifier = try #require(record["codeVerifier"] as? String)
        #expect(url.query("code_challenge") == Base64URL.encode(SHA256.hash(Array(verifier.utf8))))
        #expect(!url.absoluteString.contains(verifier), "the verifier must not leave the store")
    }

    @Test func theVerifierIs43Base64URLCharactersFrom32RandomBytesAndNewEachTime() async throws {
        let f = try TurnkeyCoreFixture()
        let first = try await f.startSignIn(.discord)
        let second = try await f.startSignIn(.x)
        let verifiers = [first, second].compactMap { f.pending.records[$0.state]?["codeVerifier"] as? String }
        #expect(verifiers.count == 2 && verifiers[0] != verifiers[1])
        for verifier in verifiers {
            #expect(verifier.count == 43)
            #expect(Base64URL.decode(verifier)?.count == 32)
            #expect(verifier.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        }
    }

    @Test func everySignInHasAFreshKeyAndAnUnguessableState() async throws {
        let f = try TurnkeyCoreFixture()
        var states: Set<String> = []
        var keys: Set<String> = []
        for provider in TurnkeyProvider.allCases + TurnkeyProvider.allCases {
            let login = try await f.startSignIn(provider)
            states.insert(login.state)
            keys.insert(login.publicKey)
            #expect(Base64URL.decode(login.state)?.count == 16, "128 random bits")
            #expect(login.publicKey.count == 66 && (login.publicKey.hasPrefix("02") || login.publicKey.hasPrefix("03")))
        }
        #expect(states.count == 8 && keys.count == 8)
        #expect(f.keys.publicKeys == keys, "every new key waits in the key store")
    }

    @Test func thePendingSignInIsKeptWithoutThePrivateKey() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.google)
        let record = try #require(f.pending.records[login.state])
        #expect(record["provider"] as? String == "google")
        #expect(record["publicKey"] as? String == login.publicKey)
        #expect(record["clientId"] as? String == "emulator-turnkey-google")
        #expect(record["redirectUri"] as? String == "http://127.0.0.1:8790/turnkey/oauth-redirect?scheme=io.github.portalauth.signin")
        #expect(record["createdAt"] as? Int == Int(TurnkeyCoreFixture.start.timeIntervalSince1970))
        #expect(record["codeVerifier"] == nil)
        let privateKey = try #require(f.privateKey(for: login.publicKey))
        #expect(try f.crypto.p256PublicKey(privateKey: privateKey) == Hex.decode(login.publicKey))
        let privateHex = Hex.encode(privateKey)
        #expect(!f.pending.items.items.values.contains { $0.contains(privateHex) })
    }

    @Test func theClientIdIsTheCallsThenTheConfigurationsThenWalletKitConfigs() async throws {
        let configured = try TurnkeyCoreFixture { $0.clientIds = [.google: TurnkeyClientIds(primary: "configured-google")] }
        #expect(try await configured.startSignIn(.google, clientId: "per-call").authorizeUrl.query("clientId") == "per-call")
        #expect(try await configured.startSignIn(.google).authorizeUrl.query("clientId") == "configured-google")
        #expect(try await configured.startSignIn(.apple).authorizeUrl.query("clientId") == "emulator-turnkey-apple")
        #expect(try await configured.startSignIn(.discord, clientId: "d-call").authorizeUrl.query("client_id") == "d-call")
    }

    @Test func withoutAnyClientIdTheProviderCannotStart() async throws {
        let f = try TurnkeyCoreFixture()
        f.transport.reply(TK.walletKit(clientIds: ["google": "g"]))
        await #expect(throws: TurnkeyAuthError.missingClientId(.x)) { try await f.auth.loginURL(for: .x) }
        #expect(f.keys.publicKeys.isEmpty && f.pending.items.items.isEmpty)
    }

    @Test func aProviderThatIsNotEnabledCannotStart() async throws {
        let f = try TurnkeyCoreFixture()
        f.transport.reply(TK.walletKit(providers: ["google", "apple", "facebook"]))
        await #expect(throws: TurnkeyAuthError.providerNotEnabled(.discord)) { try await f.auth.loginURL(for: .discord) }
        let configured = try TurnkeyCoreFixture { $0.enabledProviders = [.x] }
        await #expect(throws: TurnkeyAuthError.providerNotEnabled(.google)) { try await configured.auth.loginURL(for: .google) }
        #expect(configured.transport.requests.isEmpty, "the configuration's list needs no wallet_kit_config")
    }

    @Test func additionalStateCannotOverrideTheFlowsOwnParameters() async throws {
        let f = try TurnkeyCoreFixture()
        for name in ["state", "nonce", "clientId", "redirectUri", "provider", " "] {
            await #expect(throws: TurnkeyAuthError.invalidArgument(name: "additionalState")) {
                try await f.auth.loginURL(for: .google, additionalState: [name: "evil"])
            }
        }
        await #expect(throws: TurnkeyAuthError.invalidArgument(name: "clientId")) { try await f.auth.loginURL(for: .google, clientId: " ") }
        #expect(f.transport.requests.isEmpty && f.keys.publicKeys.isEmpty)
    }

    @Test func theRedirectPageIsTheConfiguredOneThenWalletKitsThenTurnkeys() async throws {
        let configured = try TurnkeyCoreFixture { $0.redirectUri = "https://signin.example.com/turnkey-redirect" }
        #expect(
            try await configured.startSignIn(.google).authorizeUrl.query("redirectUri")
                == "https://signin.example.com/turnkey-redirect?scheme=io.github.portalauth.signin")
        let fallback = try TurnkeyCoreFixture()
        fallback.transport.reply(TK.walletKit(redirectUrl: nil))
        #expect(
            try await fallback.auth.loginURL(for: .apple).authorizeUrl.query("redirectUri")
                == "https://oauth-redirect.turnkey.com?scheme=io.github.portalauth.signin")
        let hostile = try TurnkeyCoreFixture()
        hostile.transport.reply(TK.walletKit(redirectUrl: "http://evil.example.com/redirect"))
        await #expect(throws: TurnkeyAuthError.malformedResponse(path: "/v1/wallet_kit_config", missing: "oauthRedirectUrl")) {
            try await hostile.auth.loginURL(for: .google)
        }
    }

    @Test func walletKitConfigIsAskedOnceAndSentWithTheConfigId() async throws {
        let f = try TurnkeyCoreFixture()
        _ = try await f.startSignIn(.google)
        _ = try await f.startSignIn(.discord)
        let request = try #require(f.transport.requests.first)
        #expect(f.transport.paths == ["/turnkey/auth-proxy/v1/wallet_kit_config"])
        #expect(request.method == "POST" && request.bodyText == "{}")
        #expect(request.headers["X-Auth-Proxy-Config-ID"] == "local-dev")
        #expect(request.headers["X-Stamp"] == nil, "the Auth Proxy is not stamped")
    }

    @Test func aKeyThatCannotBeKeptLeavesNoPendingSignInBehind() async throws {
        let f = try TurnkeyCoreFixture()
        f.keys.items.failNext("save")
        f.transport.reply(TK.walletKit())
        await #expect(throws: TurnkeyAuthError.storageFailure(.key, SessionStoreError(.locked))) {
            try await f.auth.loginURL(for: .discord)
        }
        #expect(f.pending.items.items.isEmpty)
        let f2 = try TurnkeyCoreFixture()
        f2.pending.items.failNext("save", SessionStoreError(.noService))
        f2.transport.reply(TK.walletKit())
        await #expect(throws: TurnkeyAuthError.storageFailure(.pendingSignIn, SessionStoreError(.noService))) {
            try await f2.auth.loginURL(for: .google)
        }
        #expect(f2.keys.publicKeys.isEmpty)
    }

    @Test func providersComeFromTheConfigurationOrWalletKitConfig() async throws {
        let f = try TurnkeyCoreFixture()
        f.transport.reply(TK.walletKit(providers: ["google", "x", "facebook", "GOOGLE"]))
        #expect(try await f.auth.providers() == TurnkeyProviders(enabledProviders: [.google, .x], organizationId: TK.parentOrganization))
        let configured = try TurnkeyCoreFixture {
            $0.enabledProviders = [.apple]
            $0.organizationId = "org-mine"
        }
        #expect(try await configured.auth.providers() == TurnkeyProviders(enabledProviders: [.apple], organizationId: "org-mine"))
        #expect(configured.transport.requests.isEmpty)
    }
}
