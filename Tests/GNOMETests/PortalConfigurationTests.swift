import PortalAuthGNOME
import Testing

@Suite struct PortalConfigurationTests {
    @Test func withNothingSetItIsPortalsProductionHostAndNotSetUp() {
        let configuration = PortalConfiguration.resolve(flags: [:], environment: [:], settings: [:])
        #expect(configuration.apiHost == "api.portalhq.io")
        #expect(configuration.authEnvironmentId == "", "an auth environment ID has no default")
        #expect(!configuration.isSetUp)
        #expect(configuration.emulatorHost == nil)
        #expect(configuration.redirectUrl == "io.github.portalauth.signin://auth/callback")
        #expect(configuration.sessionKey == "default")
        #expect(configuration.isAccountAbstracted == nil)
        #expect(configuration.magicLinkFromEmail == "signin@portalauth.local")
        #expect(configuration.magicLinkTemplateId == "default")
    }

    @Test func flagsBeatEnvironmentWhichBeatsSettings() {
        let settings = [
            "api-host": "settings.example", "auth-environment-id": "settings-env",
            "redirect-url": "settings.scheme://cb"
        ]
        let environment = ["PORTAL_API_HOST": "env.example", "PORTAL_AUTH_ENVIRONMENT_ID": "env-env"]
        let flags = ["api-host": "flag.example"]
        let configuration = PortalConfiguration.resolve(flags: flags, environment: environment, settings: settings)
        #expect(configuration.apiHost == "flag.example")
        #expect(configuration.authEnvironmentId == "env-env")
        #expect(configuration.redirectUrl == "settings.scheme://cb")
    }

    @Test func blankValuesFallThroughToTheNextSource() {
        let configuration = PortalConfiguration.resolve(
            flags: ["environment-id": "  "], environment: ["PORTAL_AUTH_ENVIRONMENT_ID": ""],
            settings: ["auth-environment-id": "", "api-host": ""])
        #expect(configuration.authEnvironmentId == "")
        #expect(configuration.apiHost == "api.portalhq.io")
    }

    @Test func theEmulatorIsChosenByItsVariableTheFlagOrTheSettingAndGivesItsDefaults() {
        for (flags, environment, settings, host) in [
            ([:], ["PORTAL_AUTH_EMULATOR_HOST": "127.0.0.1:40123"], [:], "127.0.0.1:40123"),
            (["emulator": "127.0.0.1:8790"], [:], [:], "127.0.0.1:8790"),
            ([:], [:], ["local-test-environment": "true", "emulator-host": "localhost:9000"], "localhost:9000"),
            ([:], [:], ["local-test-environment": "true", "emulator-host": ""], "127.0.0.1:8790"),
            (["emulator": "127.0.0.1:1"], ["PORTAL_AUTH_EMULATOR_HOST": "127.0.0.1:2"], [:], "127.0.0.1:1")
        ] as [([String: String], [String: String], [String: String], String)] {
            let configuration = PortalConfiguration.resolve(flags: flags, environment: environment, settings: settings)
            #expect(configuration.apiHost == host)
            #expect(configuration.authEnvironmentId == "local-dev")
            #expect(configuration.isSetUp)
            #expect(configuration.emulatorHost == host)
        }
        let notChosen = PortalConfiguration.resolve(
            flags: [:], environment: [:],
            settings: ["local-test-environment": "false", "emulator-host": "127.0.0.1:8790"])
        #expect(notChosen.emulatorHost == nil)
        #expect(notChosen.apiHost == "api.portalhq.io")
    }

    @Test func valuesSetExplicitlyStillWinOverTheEmulatorsDefaults() {
        let configuration = PortalConfiguration.resolve(
            flags: [:], environment: ["PORTAL_AUTH_EMULATOR_HOST": "127.0.0.1:8790", "PORTAL_AUTH_ENVIRONMENT_ID": "staging"],
            settings: ["api-host": "127.0.0.1:9999"])
        #expect(configuration.authEnvironmentId == "staging")
        #expect(configuration.apiHost == "127.0.0.1:9999")
    }

    @Test func sessionKeyAndMagicLinkSenderComeFromFlagsOrEnvironment() {
        let configuration = PortalConfiguration.resolve(
            flags: ["session-key": "work"],
            environment: [
                "PORTAL_SESSION_KEY": "ignored", "PORTAL_MAGIC_LINK_FROM": "team@example.com",
                "PORTAL_MAGIC_LINK_TEMPLATE": "welcome"
            ],
            settings: [:])
        #expect(configuration.sessionKey == "work")
        #expect(configuration.magicLinkFromEmail == "team@example.com")
        #expect(configuration.magicLinkTemplateId == "welcome")
    }

    @Test func accountAbstractionIsOnlyRequestedWhenSomeoneAsksForIt() {
        #expect(
            PortalConfiguration.resolve(flags: [:], environment: [:], settings: ["account-abstracted": "false"])
                .isAccountAbstracted == nil)
        #expect(
            PortalConfiguration.resolve(flags: [:], environment: [:], settings: ["account-abstracted": "true"])
                .isAccountAbstracted == true)
        #expect(
            PortalConfiguration.resolve(
                flags: [:], environment: ["PORTAL_ACCOUNT_ABSTRACTED": "false"],
                settings: ["account-abstracted": "true"]
            ).isAccountAbstracted == false)
    }
}
