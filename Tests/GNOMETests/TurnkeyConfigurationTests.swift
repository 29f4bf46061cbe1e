import PortalAuthGNOME
import Testing
import TurnkeyAuth

@Suite struct TurnkeyConfigurationTests {
    @Test func withNothingSetItIsTurnkeysProductionAndNotSetUp() {
        let configuration = TurnkeyConfiguration.resolve(flags: [:], environment: [:], settings: [:])
        #expect(configuration.authProxyUrl == "https://authproxy.turnkey.com")
        #expect(configuration.authProxyConfigId == "", "a config ID has no default")
        #expect(!configuration.isSetUp)
        #expect(configuration.apiUrl == "https://api.turnkey.com")
        #expect(configuration.organizationId == nil, "the organization comes from wallet_kit_config")
        #expect(configuration.defaultSessionKey == "default")
        #expect(configuration.appScheme == "io.github.portalauth.signin")
        #expect(configuration.oauthOriginUrl == "https://oauth-origin.turnkey.com")
        #expect(configuration.authorizeUrl(for: .discord) == "https://discord.com/oauth2/authorize")
        #expect(configuration.authorizeUrl(for: .x) == "https://x.com/i/oauth2/authorize")
    }

    @Test func theEmulatorChosenGivesItsDefaultsForEveryURLAndTheConfigID() {
        let configuration = TurnkeyConfiguration.resolve(
            flags: [:], environment: ["PORTAL_AUTH_EMULATOR_HOST": "127.0.0.1:8790"], settings: [:])
        #expect(configuration.authProxyUrl == "http://127.0.0.1:8790/turnkey/auth-proxy")
        #expect(configuration.authProxyConfigId == "local-dev")
        #expect(configuration.isSetUp)
        #expect(configuration.apiUrl == "http://127.0.0.1:8790/turnkey/api")
        #expect(configuration.oauthOriginUrl == "http://127.0.0.1:8790/turnkey/oauth-origin")
        #expect(configuration.authorizeUrl(for: .discord) == "http://127.0.0.1:8790/idp/discord/authorize")
        #expect(configuration.authorizeUrl(for: .x) == "http://127.0.0.1:8790/idp/x/authorize")
        let byFlag = TurnkeyConfiguration.resolve(flags: ["emulator": "127.0.0.1:8790"], environment: [:], settings: [:])
        #expect(byFlag == configuration)
        let bySetting = TurnkeyConfiguration.resolve(flags: [:], environment: [:], settings: ["local-test-environment": "true"])
        #expect(bySetting == configuration)
    }

    @Test func anAuthProxyOnLoopbackAloneSendsNothingElseToLoopback() {
        // Only the Auth Proxy configured (a config ID too): the API, whose answers replace sessions,
        // and the hosted pages stay Turnkey's; none follows the Auth Proxy to a local port.
        let configuration = TurnkeyConfiguration.resolve(
            flags: [:],
            environment: [
                "TURNKEY_AUTH_PROXY_URL": "http://127.0.0.1:8790/turnkey/auth-proxy",
                "TURNKEY_AUTH_PROXY_CONFIG_ID": "my-config"
            ], settings: [:])
        #expect(configuration.apiUrl == "https://api.turnkey.com")
        #expect(configuration.oauthOriginUrl == "https://oauth-origin.turnkey.com")
        #expect(configuration.authorizeUrl(for: .discord) == "https://discord.com/oauth2/authorize")
        #expect(configuration.authorizeUrl(for: .x) == "https://x.com/i/oauth2/authorize")
        let fromSettings = TurnkeyConfiguration.resolve(
            flags: [:], environment: [:],
            settings: [
                "turnkey-auth-proxy-url": "https://authproxy.example.com",
                "turnkey-auth-proxy-config-id": "my-config"
            ])
        #expect(fromSettings.apiUrl == "https://api.turnkey.com")
    }

    @Test func flagsBeatEnvironmentWhichBeatsSettings() {
        let settings = [
            "turnkey-auth-proxy-url": "https://settings.example/proxy", "turnkey-auth-proxy-config-id": "settings-config",
            "turnkey-api-url": "https://settings.example/api", "turnkey-organization-id": "settings-org",
            "turnkey-session-key": "settings-key"
        ]
        let environment = [
            "TURNKEY_AUTH_PROXY_URL": "https://env.example/proxy", "TURNKEY_AUTH_PROXY_CONFIG_ID": "env-config",
            "TURNKEY_ORGANIZATION_ID": "env-org"
        ]
        let flags = ["auth-proxy-url": "https://flag.example/proxy", "session-key": "flag-key"]
        let configuration = TurnkeyConfiguration.resolve(flags: flags, environment: environment, settings: settings)
        #expect(configuration.authProxyUrl == "https://flag.example/proxy")
        #expect(configuration.authProxyConfigId == "env-config")
        #expect(configuration.apiUrl == "https://settings.example/api")
        #expect(configuration.organizationId == "env-org")
        #expect(configuration.defaultSessionKey == "flag-key")
    }

    @Test func blankValuesFallThroughToTheNextSource() {
        let configuration = TurnkeyConfiguration.resolve(
            flags: ["auth-proxy-config-id": " "], environment: ["TURNKEY_AUTH_PROXY_CONFIG_ID": ""],
            settings: ["turnkey-auth-proxy-config-id": "", "turnkey-auth-proxy-url": "  "])
        #expect(configuration.authProxyConfigId == "")
        #expect(configuration.authProxyUrl == "https://authproxy.turnkey.com")
    }

    @Test func anEmulatorOnAnotherPortServesEveryPageAndTheAPI() {
        let configuration = TurnkeyConfiguration.resolve(
            flags: [:], environment: ["PORTAL_AUTH_EMULATOR_HOST": "localhost:40123"], settings: [:])
        #expect(configuration.authProxyUrl == "http://localhost:40123/turnkey/auth-proxy")
        #expect(configuration.apiUrl == "http://localhost:40123/turnkey/api")
        #expect(configuration.oauthOriginUrl == "http://localhost:40123/turnkey/oauth-origin")
        #expect(configuration.authorizeUrl(for: .discord) == "http://localhost:40123/idp/discord/authorize")
        #expect(configuration.authorizeUrl(for: .x) == "http://localhost:40123/idp/x/authorize")
    }

    @Test func aRealAuthProxyKeepsTurnkeysOwnPagesUnlessTheEnvironmentSaysOtherwise() {
        let real = TurnkeyConfiguration.resolve(flags: ["auth-proxy-url": "https://authproxy.turnkey.com"], environment: [:], settings: [:])
        #expect(real.oauthOriginUrl == "https://oauth-origin.turnkey.com")
        #expect(real.authorizeUrl(for: .discord) == "https://discord.com/oauth2/authorize")
        #expect(real.authorizeUrl(for: .x) == "https://x.com/i/oauth2/authorize")
        let overridden = TurnkeyConfiguration.resolve(
            flags: ["auth-proxy-url": "https://authproxy.turnkey.com"],
            environment: [
                "TURNKEY_OAUTH_ORIGIN_URL": "https://origin.example", "TURNKEY_DISCORD_AUTHORIZE_URL": "https://d.example/a",
                "TURNKEY_X_AUTHORIZE_URL": "https://x.example/a"
            ], settings: [:])
        #expect(overridden.oauthOriginUrl == "https://origin.example")
        #expect(overridden.authorizeUrl(for: .discord) == "https://d.example/a")
        #expect(overridden.authorizeUrl(for: .x) == "https://x.example/a")
    }

    @Test func theSettingsKeysAreTheOnesTheAppsSchemaDeclares() {
        #expect(
            [Setting.authProxyUrl, .authProxyConfigId, .apiUrl, .organizationId, .turnkeySessionKey].map(\.settingsKey)
                == [
                    "turnkey-auth-proxy-url", "turnkey-auth-proxy-config-id", "turnkey-api-url", "turnkey-organization-id",
                    "turnkey-session-key"
                ])
    }

    @Test func theContextsDesktopServicesUseTheEmulatorsPagesOnlyWhenItIsChosen() {
        let production = TurnkeyContext.Services.gnome(environment: [:])
        #expect(production.oauthOriginUrl == nil && production.authorizeUrls.isEmpty, "Turnkey's and the providers' own pages")
        #expect(production.browser != nil)

        let emulator = TurnkeyContext.Services.gnome(environment: ["PORTAL_AUTH_EMULATOR_HOST": "127.0.0.1:8790"])
        #expect(emulator.oauthOriginUrl == "http://127.0.0.1:8790/turnkey/oauth-origin")
        #expect(
            emulator.authorizeUrls == [
                .discord: "http://127.0.0.1:8790/idp/discord/authorize", .x: "http://127.0.0.1:8790/idp/x/authorize"
            ])
    }
}
