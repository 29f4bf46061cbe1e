import AuthBase
import AuthTestSupport
import Foundation
import Testing

/// signup_v2's shape as Turnkey's swagger has it (a wrong one is a 400 naming the field), the wallet
/// it creates, and the stamped list_wallets and list_wallet_accounts that read it back.
@Suite("Turnkey wallets: signup_v2's wallet, list_wallets, list_wallet_accounts")
final class TurnkeyWalletTests: EmulatorSuite {
    static let ethereum: [String: String] = [
        "curve": "CURVE_SECP256K1", "pathFormat": "PATH_FORMAT_BIP32", "path": "m/44'/60'/0'/0/0",
        "addressFormat": "ADDRESS_FORMAT_ETHEREUM"
    ]
    static let solana: [String: String] = [
        "curve": "CURVE_ED25519", "pathFormat": "PATH_FORMAT_BIP32", "path": "m/44'/501'/0'/0'", "addressFormat": "ADDRESS_FORMAT_SOLANA"
    ]
    static let bitcoin: [String: String] = [
        "curve": "CURVE_SECP256K1", "pathFormat": "PATH_FORMAT_BIP32", "path": "m/84'/0'/0'/0/0",
        "addressFormat": "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH"
    ]

    private func signUp(_ token: String, _ extra: [String: Any]) async throws -> HTTPResult {
        var body: [String: Any] = [
            "apiKeys": [Any](), "authenticators": [Any](), "oauthProviders": [["providerName": "google", "oidcToken": token]]
        ]
        body.merge(extra) { $1 }
        return try await client.authProxy(TurnkeyWire.AuthProxyPath.signup, body)
    }

    @Test func theRequestedWalletIsCreatedAndListedInTurnkeysShapes() async throws {
        let key = try SessionKey()
        let token = try await client.idToken(key: key)
        let signup = try await signUp(
            token,
            [
                "userName": "Alice", "userTag": "tag-vip", "userPhoneNumber": "+15555550100",
                "wallet": ["walletName": "Main", "mnemonicLength": 24, "accounts": [Self.ethereum, Self.solana, Self.bitcoin]]
            ])
        #expect(signup.status == 200)
        let organizationId = try #require(signup.json?["organizationId"] as? String)
        let created = try #require(signup.json?["wallet"] as? [String: Any])
        let addresses = try #require(created["addresses"] as? [String])
        #expect(addresses.count == 3)
        #expect(addresses[0].hasPrefix("0x") && addresses[0].count == 42)
        #expect((32...44).contains(addresses[1].count))
        #expect(addresses[2].hasPrefix("bc1q") && addresses[2].count == 42)

        let login = try await client.oauthLogin(token, key: key)
        #expect(login.status == 200)
        let wallets = try await client.stamped(TurnkeyWire.APIPath.listWallets, ["organizationId": organizationId], key: key)
        #expect(wallets.status == 200)
        let wallet = try #require((wallets.json?["wallets"] as? [[String: Any]])?.first)
        #expect(Set(wallet.keys) == ["walletId", "walletName", "createdAt", "updatedAt", "exported", "imported"])
        #expect(wallet["walletId"] as? String == created["walletId"] as? String)
        #expect(wallet["walletName"] as? String == "Main" && wallet["exported"] as? Bool == false)

        let accounts = try await client.stamped(
            TurnkeyWire.APIPath.listWalletAccounts, ["organizationId": organizationId, "walletId": created["walletId"] ?? ""], key: key)
        let listed = try #require(accounts.json?["accounts"] as? [[String: Any]])
        #expect(listed.map { $0["address"] as? String } == addresses)
        #expect(listed.map { $0["path"] as? String } == ["m/44'/60'/0'/0/0", "m/44'/501'/0'/0'", "m/84'/0'/0'/0/0"])
        #expect(
            listed.allSatisfy {
                $0["walletId"] as? String == created["walletId"] as? String && $0["organizationId"] as? String == organizationId
            })

        let user = try await client.stamped(
            TurnkeyWire.APIPath.getUser, ["organizationId": organizationId, "userId": signup.json?["userId"] ?? ""], key: key)
        let fields = try #require(user.json?["user"] as? [String: Any])
        #expect(fields["userTags"] as? [String] == ["tag-vip"] && fields["userPhoneNumber"] as? String == "+15555550100")
        #expect(fields["userEmail"] == nil)

        let dashboard = try await client.get(try await client.dashboardURL())
        #expect(dashboard.status == 200)
        #expect(addresses.allSatisfy { dashboard.text.contains($0) }, "the dashboard lists each account's address")
        #expect(dashboard.text.contains("Main"))

        let unknownWallet = try await client.stamped(
            TurnkeyWire.APIPath.listWalletAccounts, ["organizationId": organizationId, "walletId": "no-such-wallet"], key: key)
        #expect(unknownWallet.status == 404)
    }

    @Test(arguments: [
        (#"{"wallet":{"accounts":[]}}"#, "wallet.walletName"),
        (#"{"wallet":{"walletName":"Main"}}"#, "wallet.accounts"),
        (#"{"wallet":{"walletName":"Main","accounts":[{"curve":"CURVE_SECP256K1"}]}}"#, "wallet.accounts[0].pathFormat"),
        (
            #"{"wallet":{"walletName":"Main","accounts":[{"curv":"x","curve":"CURVE_SECP256K1","pathFormat":"PATH_FORMAT_BIP32","path":"m/0","addressFormat":"ADDRESS_FORMAT_ETHEREUM"}]}}"#,
            "wallet.accounts[0].curv"
        ),
        (
            #"{"wallet":{"walletName":"Main","accounts":[{"curve":"CURVE_ED25519","pathFormat":"PATH_FORMAT_BIP32","path":"m/0","addressFormat":"ADDRESS_FORMAT_ETHEREUM"}]}}"#,
            "wallet.accounts[0].curve"
        ),
        (
            #"{"wallet":{"walletName":"Main","accounts":[{"curve":"CURVE_SECP256K1","pathFormat":"PATH_FORMAT_BIP32","path":"44/60","addressFormat":"ADDRESS_FORMAT_ETHEREUM"}]}}"#,
            "wallet.accounts[0].path"
        ),
        (#"{"wallet":{"walletName":"Main","mnemonicLength":13,"accounts":[]}}"#, "wallet.mnemonicLength"),
        (#"{"userEmails":"alice@example.com"}"#, "userEmails"),
        (#"{"organizationName":7}"#, "organizationName")
    ])
    func aWrongShapeIsA400NamingTheField(extra: String, field: String) async throws {
        let token = try await client.idToken(key: try SessionKey())
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(extra.utf8)) as? [String: Any])
        let result = try await signUp(token, fields)
        #expect(result.status == 400)
        #expect(result.turnkeyCode == 3)
        #expect(result.turnkeyMessage?.contains(field) == true, "message: \(result.turnkeyMessage ?? "none")")
        #expect(try await client.accountOrganization(token).json?["organizationId"] == nil, "nothing was created")
    }

    @Test func theGenericOIDCIssuerPublishesItselfAndItsTokensAreAcceptedLikeGooglesOnes() async throws {
        let discovery = try await client.get("/idp/oidc/.well-known/openid-configuration")
        let issuer = emulator.baseURL.absoluteString + "/idp/oidc"
        #expect(discovery.json?["issuer"] as? String == issuer)
        #expect(discovery.json?["jwks_uri"] as? String == issuer + "/jwks")

        let key = try SessionKey()
        let query = JavaURLEncoder.encode([
            ("client_id", "my-app"), ("redirect_uri", "http://127.0.0.1:4567/callback"), ("response_type", "code"),
            ("scope", "openid email"), ("state", "s-1"), ("nonce", key.nonce)
        ])
        let page = try await client.get("/idp/oidc/authorize?" + query)
        let form = try #require(HTMLForm(page: page.text))
        let answer = try await client.postForm(form.action, form.hiddenFields + [("email", "carol@example.com"), ("action", "continue")])
        let callback = try #require(answer.location)
        #expect(callback.hasPrefix("http://127.0.0.1:4567/callback?code="))
        let parameters = URLText(callback).queryParameters
        #expect(parameters["state"] == "s-1")
        let code = try #require(parameters["code"])

        let wrongClient = try await client.postForm(
            "/idp/oidc/token",
            [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "http://127.0.0.1:4567/callback"),
                ("client_id", "other")
            ])
        #expect(wrongClient.status == 400 && wrongClient.error == "invalid_grant")
        let spent = try await client.postForm(
            "/idp/oidc/token",
            [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "http://127.0.0.1:4567/callback"),
                ("client_id", "my-app")
            ])
        #expect(spent.status == 400, "a code is spent by its first use, whatever its outcome")

        let token = try await oidcToken(nonce: key.nonce)
        let claims = try JWTClaims(jwt: token)
        #expect(claims.string("iss") == issuer && claims.string("nonce") == key.nonce && claims.string("aud") == "my-app")
        #expect(JWKSVerifier.verifies(token, jwks: try await client.get("/idp/oidc/jwks")))
        let signup = try await signUp(token, [:])
        #expect(signup.status == 200)
        #expect(try await client.oauthLogin(token, key: key).status == 200)

        let elsewhere = try await client.get(
            "/idp/oidc/authorize?"
                + JavaURLEncoder.encode([
                    ("client_id", "my-app"), ("redirect_uri", "https://attacker.example/callback"), ("response_type", "code"),
                    ("scope", "openid")
                ]))
        #expect(elsewhere.status == 400, "a web redirect elsewhere is never sent a code")
    }

    private func oidcToken(nonce: String) async throws -> String {
        let query = JavaURLEncoder.encode([
            ("client_id", "my-app"), ("redirect_uri", "io.github.portalauth.signin://oidc"), ("response_type", "code"),
            ("scope", "openid"), ("nonce", nonce)
        ])
        let page = try await client.get("/idp/oidc/authorize?" + query)
        let form = try #require(HTMLForm(page: page.text))
        let answer = try await client.postForm(form.action, form.hiddenFields + [("email", "dave@example.com"), ("action", "continue")])
        let location = try #require(answer.location)
        let code = try #require(URLText(location).queryParameters["code"])
        let tokens = try await client.postForm(
            "/idp/oidc/token",
            [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "io.github.portalauth.signin://oidc"),
                ("client_id", "my-app")
            ])
        return try #require(tokens.json?["id_token"] as? String)
    }
}
