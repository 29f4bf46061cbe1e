import PortalAuthGNOME
import Testing

@Suite struct TransportConfigurationTests {
    @Test func withNothingSetItTrustsTheSystemAloneAndWaitsThirtySeconds() {
        let resolved = TransportConfiguration.resolve(flags: [:], environment: [:], settings: [:])
        #expect(resolved.caFile == nil)
        #expect(resolved.timeoutSeconds == 30)
        #expect(resolved.maxResponseBytes == 1 << 20)
    }

    @Test func theCAFileComesFromTheFlagThenTheEnvironmentThenTheSetting() {
        let all = TransportConfiguration.resolve(
            flags: ["ca-file": "/flag.pem"], environment: ["PORTAL_CA_FILE": "/env.pem"],
            settings: ["ca-file": "/setting.pem"])
        #expect(all.caFile == "/flag.pem")
        #expect(
            TransportConfiguration.resolve(
                flags: [:], environment: ["PORTAL_CA_FILE": "/env.pem"],
                settings: ["ca-file": "/setting.pem"]
            ).caFile == "/env.pem")
        #expect(
            TransportConfiguration.resolve(flags: [:], environment: [:], settings: ["ca-file": "/setting.pem"]).caFile == "/setting.pem")
        // Blank counts as unset, so an empty GSettings default (or PORTAL_CA_FILE=) adds no trust.
        #expect(TransportConfiguration.resolve(flags: [:], environment: ["PORTAL_CA_FILE": " "], settings: ["ca-file": ""]).caFile == nil)
    }

    @Test(arguments: [("5", UInt32(5)), ("86400", 86_400), ("0", 30), ("-1", 30), ("1.5", 30), ("soon", 30), ("86401", 30), ("", 30)])
    func aTimeoutIsAWholeNumberOfSecondsFromOneToADay(text: String, seconds: UInt32) {
        let resolved = TransportConfiguration.resolve(flags: [:], environment: ["PORTAL_HTTP_TIMEOUT_SECONDS": text], settings: [:])
        #expect(resolved.timeoutSeconds == seconds)
    }

    @Test func theProductWideNamesAndTheirOlderNamesBothWorkAndTheNewOneWins() {
        func resolved(_ environment: [String: String]) -> TransportConfiguration {
            TransportConfiguration.resolve(flags: [:], environment: environment, settings: [:])
        }
        #expect(resolved(["PORTAL_AUTH_CA_FILE": "/new.pem"]).caFile == "/new.pem")
        #expect(resolved(["PORTAL_CA_FILE": "/old.pem"]).caFile == "/old.pem")
        #expect(resolved(["PORTAL_AUTH_CA_FILE": "/new.pem", "PORTAL_CA_FILE": "/old.pem"]).caFile == "/new.pem")
        #expect(resolved(["PORTAL_AUTH_CA_FILE": " ", "PORTAL_CA_FILE": "/old.pem"]).caFile == "/old.pem", "blank counts as unset")
        #expect(
            TransportConfiguration.resolve(flags: ["ca-file": "/flag.pem"], environment: ["PORTAL_AUTH_CA_FILE": "/new.pem"], settings: [:])
                .caFile == "/flag.pem")

        #expect(resolved(["PORTAL_AUTH_HTTP_TIMEOUT_SECONDS": "7"]).timeoutSeconds == 7)
        #expect(resolved(["PORTAL_HTTP_TIMEOUT_SECONDS": "8"]).timeoutSeconds == 8)
        #expect(resolved(["PORTAL_AUTH_HTTP_TIMEOUT_SECONDS": "7", "PORTAL_HTTP_TIMEOUT_SECONDS": "8"]).timeoutSeconds == 7)
    }

    @Test func debugLoggingIsOnUnderEitherNameAndOffWhenBlank() {
        #expect(StandardErrorLog.ifRequested(program: "t", environment: ["PORTAL_AUTH_DEBUG": "1"]) != nil)
        #expect(StandardErrorLog.ifRequested(program: "t", environment: ["PORTAL_DEBUG": "1"]) != nil)
        #expect(StandardErrorLog.ifRequested(program: "t", environment: ["PORTAL_AUTH_DEBUG": " ", "PORTAL_DEBUG": ""]) == nil)
        #expect(StandardErrorLog.ifRequested(program: "t", environment: [:]) == nil)
    }
}
