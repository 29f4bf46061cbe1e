import Foundation
import PortalAuth
import PortalAuthGNOME
import Testing

extension GNOMEIntegration {
    /// Against the real gnome-keyring-daemon of `script/with-desktop-session`.
    @Suite(.serialized) struct KeyringPortalSessionStoreTests {
        let environmentId = "keyring-test-\(UUID().uuidString.prefix(8))"

        init() {
            // libsecret's asynchronous calls complete on GLib's main context.
            GLibLoopThread.ensureRunning()
        }

        @Test func savesLoadsAndDeletesTheSecretExactlyAsGiven() async throws {
            let store = KeyringPortalSessionStore()
            let secret = #"{"clientSessionToken":"keyring-test-value","endUserId":"user-1"}"#
            try await store.save(secret, authEnvironmentId: environmentId)

            let loaded = try await store.load(authEnvironmentId: environmentId)
            #expect(loaded == secret)
            // The item is a normal Secret Service item others can find by its attributes.
            #expect(SecretTool.lookup(authEnvironmentId: environmentId, sessionKey: "default") == secret)

            try await store.delete(authEnvironmentId: environmentId)
            #expect(try await store.load(authEnvironmentId: environmentId) == nil)
            #expect(SecretTool.lookup(authEnvironmentId: environmentId, sessionKey: "default") == nil)
        }

        @Test func saveReplacesTheEarlierSecret() async throws {
            let store = KeyringPortalSessionStore()
            try await store.save("first", authEnvironmentId: environmentId)
            try await store.save("second", authEnvironmentId: environmentId)
            #expect(try await store.load(authEnvironmentId: environmentId) == "second")
            #expect(SecretTool.count(authEnvironmentId: environmentId, sessionKey: "default") == 1)
            try await store.delete(authEnvironmentId: environmentId)
        }

        @Test func sessionKeysAndEnvironmentsAreKeptApart() async throws {
            let main = KeyringPortalSessionStore()
            let other = KeyringPortalSessionStore(sessionKey: "work")
            try await main.save("main-secret", authEnvironmentId: environmentId)
            try await other.save("work-secret", authEnvironmentId: environmentId)

            #expect(try await main.load(authEnvironmentId: environmentId) == "main-secret")
            #expect(try await other.load(authEnvironmentId: environmentId) == "work-secret")
            #expect(try await main.load(authEnvironmentId: environmentId + "-elsewhere") == nil)

            try await other.delete(authEnvironmentId: environmentId)
            #expect(try await other.load(authEnvironmentId: environmentId) == nil)
            #expect(try await main.load(authEnvironmentId: environmentId) == "main-secret")
            try await main.delete(authEnvironmentId: environmentId)
        }

        @Test func deletingNothingIsNotAnErrorAndTouchesNoOtherSession() async throws {
            let store = KeyringPortalSessionStore()
            try await store.save("kept", authEnvironmentId: environmentId)
            try await store.delete(authEnvironmentId: environmentId + "-never-saved")
            #expect(try await store.load(authEnvironmentId: environmentId) == "kept")
            #expect(try await store.load(authEnvironmentId: environmentId + "-never-saved") == nil)
            try await store.delete(authEnvironmentId: environmentId)
        }

        @Test func itemCarriesARecognisableLabel() async throws {
            let store = KeyringPortalSessionStore()
            try await store.save("labelled", authEnvironmentId: environmentId)
            #expect(
                SecretTool.label(authEnvironmentId: environmentId, sessionKey: "default")
                    == "Portal Sign-In session (\(environmentId))")
            try await store.delete(authEnvironmentId: environmentId)
        }
    }
}
