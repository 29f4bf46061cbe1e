import AuthBase
import Foundation
import Testing

/// Turnkey in the administration API, the dashboard, reset, the request log and faults; and the
/// `turnkey` section of the config file.
@Suite("Turnkey administration")
final class TurnkeyAdminTests: EmulatorSuite {
    /// Anything token- or code-shaped: a JWT, or one of the fake providers' codes.
    private static func containsSecretShape(_ text: String) -> Bool {
        text.contains("eyJ") || text.contains("discordc_") || text.contains("xc_")
    }

    @Test func theAdminAPIShowsOrganizationsUsersAndLiveSessionsButNoTokens() async throws {
        let (key, signIn) = try await client.turnkeyGoogleUser()
        let pkce = try PKCEPair()
        _ = try await client.oauth2Code(provider: "discord", pkce: pkce) // an unspent code
        let raw = try await client.get("/emulator/v1/turnkey")
        #expect(raw.status == 200)
        expectQuietly(!Self.containsSecretShape(raw.text), "no token or code in the answer")
        expectQuietly(!raw.text.contains(Hex.encode(key.pair.privateKey)), "no private key in the answer")
        let state = raw.data ?? [:]
        let configs = state["authProxyConfigs"] as? [[String: Any]] ?? []
        #expect(configs.compactMap { $0["id"] as? String } == ["local-dev"])
        #expect(configs.first?["enabledProviders"] as? [String] == ["google", "apple", "discord", "x"])
        let organizations = state["organizations"] as? [[String: Any]] ?? []
        #expect(organizations.compactMap { $0["organizationId"] as? String } == [signIn.organizationId])
        let users = state["users"] as? [[String: Any]] ?? []
        #expect(users.first?["userId"] as? String == signIn.userId)
        #expect(users.first?["userEmail"] as? String == "alice@example.com")
        let identity = (users.first?["oauthProviders"] as? [[String: Any]])?.first
        #expect(identity?["audience"] as? String == "emulator-turnkey-google")
        let sessions = state["sessions"] as? [[String: Any]] ?? []
        #expect(sessions.compactMap { $0["publicKey"] as? String } == [key.publicKey])
        #expect(sessions.first?["expiresAt"] as? Int == Int(signIn.claims?.number("exp") ?? -1))
    }

    @Test func resetForgetsTurnkeysOrganizationsSessionsAndCodes() async throws {
        let (key, signIn) = try await client.turnkeyGoogleUser()
        let pkce = try PKCEPair()
        let code = try await client.oauth2Code(provider: "x", pkce: pkce)
        let tokenKey = try SessionKey()
        let token = try await client.idToken(key: tokenKey)
        try await client.reset()

        let state = try await client.turnkeyState()
        #expect((state["organizations"] as? [Any])?.isEmpty == true)
        #expect((state["sessions"] as? [Any])?.isEmpty == true)
        let whoami = try await client.stamped(TurnkeyWire.APIPath.whoami, ["organizationId": signIn.organizationId], key: key)
        #expect(whoami.status == 401)
        #expect(try await client.accountOrganization(token).json?["organizationId"] == nil)
        let spent = try await client.oauth2Authenticate(provider: "x", code: code, verifier: pkce.verifier, nonce: tokenKey.nonce)
        #expect(spent.status == 401)
    }

    @Test func theRequestLogCoversTurnkeyPathsWithoutQueriesOrTokens() async throws {
        _ = try await client.turnkeyGoogleUser()
        let raw = try await client.get("/emulator/v1/requests")
        expectQuietly(!Self.containsSecretShape(raw.text), "no token in the log")
        expectQuietly(!raw.text.contains("?"), "no query in the log")
        let summary = (raw.dataList ?? []).map {
            "\($0["method"] as? String ?? "") \($0["path"] as? String ?? "") \($0["status"] as? Int ?? -1)"
        }
        #expect(
            summary == [
                "GET /turnkey/oauth-origin 302",
                "GET /idp/google/authorize 200",
                "POST /idp/google/authorize 302",
                "GET /turnkey/oauth-redirect 302",
                "POST /turnkey/auth-proxy/v1/signup_v2 200",
                "POST /turnkey/auth-proxy/v1/oauth_login 200"
            ])
    }

    @Test func faultsAndUnknownPathsAnswerInTurnkeysShape() async throws {
        try await client.addFault(["path": "/turnkey/auth-proxy/v1/wallet_kit_config", "kind": "status", "status": 503])
        let faulted = try await client.authProxy(TurnkeyWire.AuthProxyPath.walletKitConfig, [String: Any]())
        #expect(faulted.status == 503)
        #expect(faulted.turnkeyCode == 14)
        #expect(faulted.turnkeyMessage?.contains("Injected fault") == true)
        #expect(try await client.authProxy(TurnkeyWire.AuthProxyPath.walletKitConfig, [String: Any]()).status == 200)

        let unknown = try await client.authProxy("/v1/get_wallets", [String: Any]())
        #expect(unknown.status == 404 && unknown.turnkeyCode == 5)
        let wrongMethod = try await client.get("/turnkey/api/public/v1/query/whoami")
        #expect(wrongMethod.status == 405 && wrongMethod.turnkeyCode == 12)
        #expect(wrongMethod.header("Allow") == "POST")
        // Portal's paths keep Portal's shape.
        #expect(try await client.get("/api/v3/nope").error?.isEmpty == false)
    }

    @Test func theDashboardSaysWhenTurnkeyHasNoSignUpsOrSessions() async throws {
        let page = try await client.get("/")
        #expect(page.status == 200)
        #expect(page.text.contains(#"<p class="muted">No sign-ups yet.</p>"#))
        #expect(page.text.contains(#"<p class="muted">No live sessions.</p>"#))
    }

    @Test func theDashboardShowsTurnkeyButNoTokens() async throws {
        let (key, signIn) = try await client.turnkeyGoogleUser()
        let page = try await client.get("/")
        #expect(page.status == 200)
        expectQuietly(!Self.containsSecretShape(page.text), "no token on the dashboard")
        #expect(page.text.contains("Turnkey Auth Proxy configs"))
        #expect(page.text.contains("<code>emulator-turnkey-discord</code>"))
        #expect(page.text.contains(signIn.organizationId))
        #expect(page.text.contains("Alice's org") == false && page.text.contains("Alice&#39;s org"))
        #expect(page.text.contains(key.publicKey))
        #expect(!page.text.lowercased().contains("<script"))
    }
}

@Suite("Turnkey config section")
struct TurnkeyConfigTests {
    private static let environments = #""environments": [{"id": "x", "authMethods": [], "redirectUrls": ["a://b"]}]"#

    @Test(arguments: [
        (#""turnkey": []"#, "turnkey: must be an object"),
        (#""turnkey": {"authProxyConfigs": []}"#, "turnkey.authProxyConfigs: must be a non-empty array"),
        (#""turnkey": {"authProxyConfigs": [{"id": "bad id", "providers": {}}]}"#, "turnkey.authProxyConfigs[0].id"),
        (#""turnkey": {"authProxyConfigs": [{"id": "a"}]}"#, "turnkey.authProxyConfigs[0].providers"),
        (
            #""turnkey": {"authProxyConfigs": [{"id": "a", "providers": {"facebook": {}}}]}"#,
            "turnkey.authProxyConfigs[0].providers.facebook: unknown provider"
        ),
        (
            #""turnkey": {"authProxyConfigs": [{"id": "a", "providers": {"x": {"redirectUris": ["a://"]}}}]}"#,
            "turnkey.authProxyConfigs[0].providers.x.clientId"
        ),
        (
            #""turnkey": {"authProxyConfigs": [{"id": "a", "providers": {"x": {"clientId": "c", "redirectUris": []}}}]}"#,
            "turnkey.authProxyConfigs[0].providers.x.redirectUris"
        ),
        (
            #""turnkey": {"authProxyConfigs": [{"id": "a", "providers": {"x": {"clientId": "c", "redirectUris": ["nowhere"]}}}]}"#,
            "turnkey.authProxyConfigs[0].providers.x.redirectUris[0]"
        ),
        (
            #""turnkey": {"authProxyConfigs": [{"id": "a", "providers": {"x": {"clientId": "c", "secondaryClientIds": ["c"], "redirectUris": ["a://"]}}}]}"#,
            "turnkey.authProxyConfigs[0].providers.x.secondaryClientIds[0]: duplicate client ID"
        ),
        (
            #""turnkey": {"authProxyConfigs": [{"id": "a", "sessionExpirationSeconds": 0, "providers": {}}]}"#,
            "turnkey.authProxyConfigs[0].sessionExpirationSeconds"
        ),
        (
            #""turnkey": {"authProxyConfigs": [{"id": "a", "providers": {}}, {"id": "a", "providers": {}}]}"#,
            "turnkey.authProxyConfigs[1].id: duplicate id"
        ),
        (#""turnkey": {"authProxyConfigs": [{"id": "a", "providers": {}}], "users": [{"email": "nobody"}]}"#, "turnkey.users[0].email")
    ])
    func aBadTurnkeySectionNamesTheFieldAndExitsNonZero(section: String, expectedMessage: String) throws {
        let run = try withConfigFile("{\(Self.environments), \(section)}") {
            try EmulatorProcess.runToExit(["--port", "0", "--config", $0])
        }
        #expect(run.status == 1)
        #expect(run.stderr.contains(expectedMessage), "stderr: \(run.stderr)")
        #expect(!run.stdout.contains("listening on"))
    }

    @Test func aConfiguredSectionReplacesTheBuiltInConfig() async throws {
        let config = """
            {\(Self.environments), "turnkey": {"authProxyConfigs": [{"id": "staging", "organizationId": "org-parent",
              "sessionExpirationSeconds": 60,
              "providers": {"discord": {"clientId": "my-discord", "redirectUris": ["myapp://"]}}}]}}
            """
        let emulator = try withConfigFile(config) { try EmulatorProcess(arguments: ["--config", $0]) }
        defer { emulator.stop() }
        let client = EmulatorClient(baseURL: emulator.baseURL, adminToken: emulator.adminToken)
        let kit = try await client.authProxy(TurnkeyWire.AuthProxyPath.walletKitConfig, [String: Any](), configId: "staging")
        #expect(kit.json?["enabledProviders"] as? [String] == ["discord"])
        #expect(kit.json?["organizationId"] as? String == "org-parent")
        #expect(kit.json?["sessionExpirationSeconds"] as? String == "60")
        #expect(kit.json?["oauthClientIds"] as? [String: String] == ["discord": "my-discord"])
        #expect(try await client.authProxy(TurnkeyWire.AuthProxyPath.walletKitConfig, [String: Any]()).status == 401)

        let pkce = try PKCEPair()
        let page = try await client.get(
            client.oauth2AuthorizeURL(
                provider: "discord", clientId: "my-discord", redirectUri: "myapp://",
                challenge: pkce.challenge))
        #expect(page.status == 200)
        #expect(try await client.get(client.oauth2AuthorizeURL(provider: "x", challenge: pkce.challenge)).status == 400)
    }

    @Test func theShippedExampleConfigHasTheBuiltInTurnkeySection() async throws {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let example = packageRoot.appendingPathComponent("data/emulator/local-dev.json").path
        let shipped = try EmulatorProcess(arguments: ["--config", example])
        defer { shipped.stop() }
        let builtIn = try EmulatorProcess()
        defer { builtIn.stop() }
        func configs(_ emulator: EmulatorProcess) async throws -> String {
            let raw = try await EmulatorClient(baseURL: emulator.baseURL, adminToken: emulator.adminToken).get("/emulator/v1/turnkey")
            let configs = raw.data?["authProxyConfigs"] ?? []
            let text = String(
                decoding: try JSONSerialization.data(withJSONObject: configs, options: [.sortedKeys, .withoutEscapingSlashes]),
                as: UTF8.self)
            return text.replacingOccurrences(of: emulator.baseURL.absoluteString, with: "BASE")
        }
        let shippedConfigs = try await configs(shipped)
        #expect(shippedConfigs.contains("emulator-turnkey-x-secondary"))
        #expect(shippedConfigs == (try await configs(builtIn)))
        let page = try await EmulatorClient(baseURL: shipped.baseURL, adminToken: shipped.adminToken).get(
            EmulatorClient(baseURL: shipped.baseURL, adminToken: shipped.adminToken).oauth2AuthorizeURL(
                provider: "discord", challenge: try PKCEPair().challenge))
        #expect(page.text.contains("Alice Example"))
    }

    @Test func helpDocumentsTheTurnkeySide() throws {
        let run = try EmulatorProcess.runToExit(["--help"])
        #expect(run.status == 0)
        for text in [
            "/turnkey/auth-proxy/v1/wallet_kit_config", "X-Auth-Proxy-Config-ID", "X-Stamp", "/turnkey/oauth-origin",
            "/turnkey/oauth-redirect", "/idp/discord/authorize", "/idp/.well-known/jwks.json", "GET  turnkey",
            "\"authProxyConfigs\"", "pending"
        ] {
            #expect(run.stdout.contains(text), "help mentions \(text)")
        }
    }
}
