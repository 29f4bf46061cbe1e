import Foundation
import PortalAuth
import PortalAuthGNOME
import Testing

extension GNOMEIntegration {
    /// The login keyring locked while an unlock dialog can appear: gnome-keyring-daemon asks the
    /// prompter (here `FakePrompter`, answering as the person would) for the keyring password.
    /// Dismissing it must fail the save with a message saying what to do, keeping what was stored.
    @Suite(.serialized) struct DismissedPromptTests: KeyringSuite {
        let emulator: AdministeredEmulator
        let cli: CLI

        init() async throws {
            (emulator, cli) = try await Self.cleanStart()
        }

        /// The message tells the person to unlock the keyring themselves and try again.
        func expectUnlockAdvice(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(message.contains("keyring"), sourceLocation: sourceLocation)
            #expect(message.contains("Unlock"), sourceLocation: sourceLocation)
            #expect(message.contains("Seahorse"), sourceLocation: sourceLocation)
            #expect(message.contains("try again"), sourceLocation: sourceLocation)
        }

        @Test func aDismissedUnlockPromptFailsTheSignInAndKeepsTheEarlierSession() async throws {
            let first = run(["handle-redirect", "-"], input: try await signedInRedirect(email: "alice@example.com"))
            try #require(first.status == 0)
            let aliceId = try #require(first.last["endUserId"] as? String)
            let storedBefore = try #require(SecretTool.lookup(authEnvironmentId: "local-dev", sessionKey: "default"))
            let bobRedirect = try await signedInRedirect(email: "bob@example.com")

            try LoginKeyring.lock()
            defer { try? LoginKeyring.unlock() }
            let prompter = try FakePrompter(.dismiss)
            defer { prompter.stop() }

            let result = run(["handle-redirect", "-"], input: bobRedirect)
            #expect(prompter.promptsShown.contains("password"), "the daemon must have asked for the keyring password")
            #expect(result.status == 6)
            #expect(result.last["error"] as? String == "sessionStorageFailure")
            expectUnlockAdvice(result.last["message"] as? String ?? "")
            #expect(!result.lines.contains { $0["result"] as? String == "authenticated" })
            #expect(try LoginKeyring.isLocked, "a dismissed prompt leaves the keyring locked")

            prompter.stop()
            try LoginKeyring.unlock()
            let storedAfter = SecretTool.lookup(authEnvironmentId: "local-dev", sessionKey: "default")
            let unchanged = storedAfter == storedBefore
            #expect(unchanged, "the earlier session must be kept as it was")
            #expect(SecretTool.count(authEnvironmentId: "local-dev", sessionKey: "default") == 1)
            let restored = run(["session"])
            #expect(restored.status == 0)
            #expect((restored.last["session"] as? [String: Any])?["endUserId"] as? String == aliceId)
        }

        @Test func theStoreReportsADismissedPromptAndCreatesNoItem() async throws {
            let store = KeyringPortalSessionStore(sessionKey: "dismissed-prompt-test")
            try LoginKeyring.lock()
            defer { try? LoginKeyring.unlock() }
            let prompter = try FakePrompter(.dismiss)
            defer { prompter.stop() }

            var failure: SessionStoreError?
            do { try await store.save("never-kept", authEnvironmentId: "local-dev") } catch let error as SessionStoreError {
                failure = error
            }
            #expect(prompter.promptsShown.contains("password"), "the daemon must have asked for the keyring password")
            let kind = try #require(failure?.kind, "a dismissed prompt must not count as saved")
            // libsecret 0.20 reports a prompt dismissed during a store as a locked collection.
            #expect(kind == .locked || kind == .dismissed)

            prompter.stop()
            try LoginKeyring.unlock()
            #expect(SecretTool.count(authEnvironmentId: "local-dev", sessionKey: "dismissed-prompt-test") == 0)
            #expect(try await store.load(authEnvironmentId: "local-dev") == nil)
        }

        /// Proves the prompter above is the one the daemon really uses: answering it unlocks the keyring.
        @Test func anAnsweredUnlockPromptLetsTheSaveLand() async throws {
            let store = KeyringPortalSessionStore(sessionKey: "answered-prompt-test")
            try LoginKeyring.lock()
            defer { try? LoginKeyring.unlock() }
            let prompter = try FakePrompter(.accept)
            defer { prompter.stop() }

            try await store.save("kept-after-unlock", authEnvironmentId: "local-dev")
            #expect(prompter.promptsShown.contains("password"), "the daemon must have asked for the keyring password")
            #expect(try !LoginKeyring.isLocked, "the prompter's password unlocked the keyring")
            let kept = SecretTool.lookup(authEnvironmentId: "local-dev", sessionKey: "answered-prompt-test") == "kept-after-unlock"
            #expect(kept, "the saved value must be in the keyring")

            try await store.delete(authEnvironmentId: "local-dev")
        }
    }
}
