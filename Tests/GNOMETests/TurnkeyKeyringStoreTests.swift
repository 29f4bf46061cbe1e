import Foundation
import PortalAuthGNOME
import Testing
import TurnkeyAuth

extension GNOMEIntegration {
    /// TurnkeyAuth's stores against the real gnome-keyring-daemon, read back with `secret-tool`.
    @Suite(.serialized) struct TurnkeyKeyringStoreTests {
        let configId = "turnkey-store-test-\(UUID().uuidString.prefix(8))"

        init() { GLibLoopThread.ensureRunning() }

        @Test func sessionsAreItemsOfTheirSchemaListedBySessionKey() async throws {
            let store = KeyringTurnkeySessionStore()
            try await store.save("jwt-personal", authProxyConfigId: configId, sessionKey: "personal")
            try await store.save("jwt-work", authProxyConfigId: configId, sessionKey: "work")
            try await store.save("jwt-work-2", authProxyConfigId: configId, sessionKey: "work")

            #expect(try await store.load(authProxyConfigId: configId, sessionKey: "work") == "jwt-work-2")
            #expect(try await store.sessionKeys(authProxyConfigId: configId) == ["personal", "work"])
            #expect(try await store.sessionKeys(authProxyConfigId: configId + "-other").isEmpty)
            #expect(
                SecretTool.lookup([
                    "xdg:schema": "io.github.portalauth.TurnkeySession", "auth-proxy-config-id": configId,
                    "session-key": "personal"
                ]) == "jwt-personal")
            #expect(
                SecretTool.labels(["auth-proxy-config-id": configId, "session-key": "work"])
                    == ["Portal Sign-In Turnkey session (\(configId), work)"])

            try await store.delete(authProxyConfigId: configId, sessionKey: "personal")
            try await store.delete(authProxyConfigId: configId, sessionKey: "work")
            #expect(try await store.sessionKeys(authProxyConfigId: configId).isEmpty)
            #expect(SecretTool.lookup(["auth-proxy-config-id": configId, "session-key": "work"]) == nil)
        }

        @Test func keysAreKeptUnderTheirPublicKey() async throws {
            let store = KeyringTurnkeyKeyStore()
            let publicKey = "02" + String(repeating: "ab", count: 32)
            try await store.save(privateKey: String(repeating: "cd", count: 32), publicKey: publicKey)
            #expect(
                SecretTool.lookup(["xdg:schema": "io.github.portalauth.TurnkeyKey", "public-key": publicKey])
                    == String(repeating: "cd", count: 32))
            #expect(SecretTool.labels(["public-key": publicKey]) == ["Portal Sign-In Turnkey key (02abababab…)"])
            try await store.delete(publicKey: publicKey)
            #expect(try await store.load(publicKey: publicKey) == nil)
        }

        @Test func pendingSignInsAreListedByState() async throws {
            let store = KeyringTurnkeyPendingSignInStore()
            try await store.save(#"{"state":"s1"}"#, authProxyConfigId: configId, state: "s1")
            try await store.save(#"{"state":"s2"}"#, authProxyConfigId: configId, state: "s2")
            #expect(try await store.all(authProxyConfigId: configId) == ["s1": #"{"state":"s1"}"#, "s2": #"{"state":"s2"}"#])
            #expect(
                SecretTool.lookup([
                    "xdg:schema": "io.github.portalauth.TurnkeyPending", "auth-proxy-config-id": configId,
                    "state": "s2"
                ]) == #"{"state":"s2"}"#)
            try await store.delete(authProxyConfigId: configId, state: "s1")
            try await store.delete(authProxyConfigId: configId, state: "s2")
            #expect(try await store.all(authProxyConfigId: configId).isEmpty)
        }
    }
}
