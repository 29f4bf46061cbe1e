import Foundation
import Testing

@testable import AuthEmulator

/// The config file decodes with `Codable`; a problem anywhere in it names the field by its whole
/// path, so the person fixing the file finds it without counting braces.
@Suite("Config file decoding")
struct ConfigDecodingTests {
    private static let environment = #"{"id": "x", "authMethods": [], "redirectUrls": ["a://b"]"#

    private func problem(_ json: String) -> String? {
        do {
            _ = try ConfigLoader.parse(Data(json.utf8))
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aBadFieldDeepInsideNamesItsWholePath() {
        let users = #""users": [{"email": "a@b.c"}, {"email": "b@b.c"}, {"email": 7}]"#
        #expect(
            problem(#"{"environments": [\#(Self.environment)}, \#(Self.environment), \#(users)}]}"#)
                == "environments[1].users[2].email: must be an email address")
        let client = #"{"clientId": "c", "redirectUris": ["a://", 3]}"#
        #expect(
            problem(
                #"{"environments": [\#(Self.environment)}], "turnkey": {"authProxyConfigs": [{"id": "a", "providers": {"discord": \#(client)}}]}}"#
            )
                == "turnkey.authProxyConfigs[0].providers.discord.redirectUris[1]: must be an absolute URI such as myapp:// or a path on the emulator such as /turnkey/oauth-redirect?scheme=myapp"
        )
        // A value of the wrong shape where an object belongs: the decoder's own finding, at its path.
        #expect(problem(#"{"environments": [\#(Self.environment)}, "staging"]}"#) == "environments[1]: must be an object")
        #expect(
            problem(#"{"environments": [\#(Self.environment), "autoCreateWallet": "yes"}]}"#)
                == "environments[0].autoCreateWallet: must be true or false")
    }

    @Test func unknownKeysAreIgnoredAndUsersReadTheSameInBothSections() throws {
        let json = #"""
            {"comment": "mine", "environments": [{"id": "x", "authMethods": ["GOOGLE", "GOOGLE"], "redirectUrls": ["a://b"], "colour": "red",
              "users": [{"email": " Alice@Example.com ", "needsTotp": true, "nickname": "al"}]}],
             "turnkey": {"authProxyConfigs": [{"id": "a", "providers": {"x": {"clientId": "c", "redirectUris": ["a://"]}}}],
              "users": [{"email": "bob@example.com", "name": "Bob"}]}}
            """#
        let config = try ConfigLoader.parse(Data(json.utf8))
        let environment = try #require(config.environment("x"))
        #expect(environment.authMethods == [.google])
        #expect(environment.users == [ConfigUser(email: "alice@example.com", name: "", needsTotp: true)])
        #expect(environment.autoCreateWallet && !environment.accountAbstraction)
        #expect(config.turnkey.users == [ConfigUser(email: "bob@example.com", name: "Bob")])
        #expect(config.turnkey.authProxyConfigs.map(\.enabledProviders) == [[.x]])
        #expect(config.turnkey.authProxyConfigs.first?.sessionExpirationSeconds == 900)
    }

    @Test func theShippedExampleIsTheBuiltInConfig() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../data/emulator/local-dev.json")
        #expect(try ConfigLoader.parse(Data(contentsOf: example)) == EmulatorConfig.builtIn)
    }

    @Test func namesAndWalletsAreReadWithDefaults() throws {
        let config = try ConfigLoader.parse(
            Data(
                #"""
                {"environments":[
                  {"id":"named","name":"Staging","appName":"Acme Wallet","authMethods":["GOOGLE"],
                   "redirectUrls":["io.github.portalauth.signin://auth/callback"],
                   "users":[{"email":"bo@example.com","wallets":true},{"email":"cy@example.com"}]},
                  {"id":"plain","authMethods":["GOOGLE"],"redirectUrls":["io.github.portalauth.signin://auth/callback"]}]}
                """#.utf8))
        let named = try #require(config.environment("named"))
        #expect(named.name == "Staging" && named.appName == "Acme Wallet")
        #expect(named.users.map(\.hasWallets) == [true, false])
        let plain = try #require(config.environment("plain"))
        #expect(plain.name == EnvironmentConfig.defaultName && plain.appName == EnvironmentConfig.defaultAppName)
        #expect(throws: ConfigError.self) {
            try ConfigLoader.parse(
                Data(
                    #"""
                    {"environments":[{"id":"bad","name":7,"authMethods":["GOOGLE"],"redirectUrls":["io.github.portalauth.signin://auth/callback"]}]}
                    """#.utf8))
        }
    }
}
