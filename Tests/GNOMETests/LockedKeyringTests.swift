import Foundation
import PortalAuth
import PortalAuthGNOME
import Testing

extension GNOMEIntegration {
    /// The login keyring locked (as after a suspend, or when the login password differs from the
    /// keyring's). In the private session the unlock prompt cannot appear, so every prompt ends
    /// dismissed. Each test unlocks the keyring again before it ends.
    @Suite(.serialized) struct LockedKeyringTests: KeyringSuite {
        let emulator: AdministeredEmulator
        let cli: CLI

        init() async throws {
            (emulator, cli) = try await Self.cleanStart()
        }

        func expectLockedFailure(_ result: CLI.Run, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(result.status == 6, sourceLocation: sourceLocation)
            #expect(result.last["error"] as? String == "sessionStorageFailure", sourceLocation: sourceLocation)
            let message = result.last["message"] as? String ?? ""
            #expect(message.contains("login keyring is locked"), sourceLocation: sourceLocation)
            #expect(message.contains("Seahorse"), sourceLocation: sourceLocation)
        }

        /// The keyring is unlocked (its prompt, which ends dismissed here) before the grant is spent:
        /// the same redirect signs in once the keyring is unlocked.
        @Test func aSignInIntoALockedKeyringIsReportedNotClaimedAndSpendsNoGrant() async throws {
            let redirect = try await signedInRedirect()
            try LoginKeyring.lock()
            defer { try? LoginKeyring.unlock() }

            let result = run(["handle-redirect", "-"], input: redirect)
            #expect(result.status == 6)
            #expect(result.last["error"] as? String == "sessionStorageFailure")
            let message = result.last["message"] as? String ?? ""
            #expect(message.contains("stayed locked") && message.contains("Seahorse"), "\(message)")
            #expect(!result.lines.contains { $0["result"] as? String == "authenticated" })

            try LoginKeyring.unlock()
            #expect(SecretTool.lookup(authEnvironmentId: "local-dev", sessionKey: "default") == nil)
            let later = run(["handle-redirect", "-"], input: redirect)
            #expect(later.status == 0 && later.last["result"] as? String == "authenticated", "the grant was spent by the refused sign-in")
        }

        @Test func aStoredSessionBehindALockedKeyringIsNeitherLostNorReportedMissing() async throws {
            let signedIn = run(["handle-redirect", "-"], input: try await signedInRedirect())
            try #require(signedIn.status == 0)
            let endUserId = signedIn.last["endUserId"] as? String
            try LoginKeyring.lock()
            defer { try? LoginKeyring.unlock() }

            expectLockedFailure(run(["session"]))
            expectLockedFailure(run(["sign-out"]))

            try LoginKeyring.unlock()
            let restored = run(["session"])
            #expect(restored.status == 0)
            #expect((restored.last["session"] as? [String: Any])?["endUserId"] as? String == endUserId)
        }

        @Test func theStoreItselfRefusesToSaveIntoALockedKeyring() async throws {
            let store = KeyringPortalSessionStore(sessionKey: "locked-test")
            try LoginKeyring.lock()
            defer { try? LoginKeyring.unlock() }
            var failure: SessionStoreError?
            do { try await store.save("never-kept", authEnvironmentId: "local-dev") } catch let error as SessionStoreError {
                failure = error
            }
            // The save asks to unlock first; here that prompt ends dismissed.
            #expect(failure?.kind == .dismissed)
            try LoginKeyring.unlock()
            #expect(try await store.load(authEnvironmentId: "local-dev") == nil)
        }
    }
}
