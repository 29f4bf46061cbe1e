import AuthTestSupport
import Foundation
import PortalAuth
import PortalAuthGNOME
import Testing

extension GNOMEIntegration {
    /// What a Linux app does after the seed pages' sign-in: `Portal(credentials:)` on libsoup against
    /// the emulator, and the session in the real keyring, which an ended session takes with it.
    @Suite(.serialized) struct SignedInPortalTests: KeyringSuite {
        let emulator: AdministeredEmulator
        let cli: CLI
        let sessionKey = "signed-in-portal"

        init() async throws {
            (emulator, cli) = try await Self.cleanStart()
            try await desktopAuth().clearPersistedSession()
        }

        /// The desktop's PortalAuth on the emulator, its keyring item under this suite's session key.
        private func desktopAuth() throws -> PortalAuth {
            try PortalAuth(
                authEnvironmentId: "local-dev", redirectUrl: PortalConfiguration.defaultRedirectUrl, apiHost: emulator.apiHost,
                sessionKey: sessionKey)
        }

        private func signIn(_ auth: PortalAuth, email: String) async throws -> PortalSession {
            let redirect = try await signedInRedirect(email: email)
            guard case .authenticated(let result)? = try await auth.handleRedirect(redirect) else {
                throw PortalAuthSignInError.callbackIncomplete
            }
            return result.session
        }

        private var stored: String? { SecretTool.lookup(authEnvironmentId: "local-dev", sessionKey: sessionKey) }

        @Test func aUserWithWalletsSeesTheAppEnvironmentAndAddresses() async throws {
            let auth = try desktopAuth()
            let portal = try Portal(credentials: try await signIn(auth, email: "alice@example.com"))
            let client = try #require(try await portal.client)
            #expect(client.custodian.name == "Portal Sign-In Demo")
            #expect(client.environment?.name == "Local development")
            let evm = try #require(client.metadata.namespaces.eip155?.address)
            #expect(evm.hasPrefix("0x") && evm.count == 42)
            let solana = try #require(client.metadata.namespaces.solana?.address)
            #expect((32...44).contains(solana.count) && solana.allSatisfy { $0.isLetter || $0.isNumber })
            #expect(client.wallets.map(\.curve) == ["SECP256K1", "ED25519"])
            let addresses = try await portal.addresses
            #expect(addresses[.eip155] == .some(evm))
            #expect(addresses[.solana] == .some(solana))
            try await auth.clearPersistedSession()
        }

        @Test func aUserWithoutWalletsHasNoAddresses() async throws {
            let auth = try desktopAuth()
            let portal = try Portal(credentials: try await signIn(auth, email: "new-person@example.com"))
            let client = try #require(try await portal.client)
            #expect(client.wallets.isEmpty)
            #expect(client.metadata.namespaces == ClientInfo.Namespaces())
            #expect(client.custodian.name == "Portal Sign-In Demo")
            try await auth.clearPersistedSession()
        }

        @Test func aSessionPortalRevokedEndsAndLeavesTheKeyring() async throws {
            let auth = try desktopAuth()
            let session = try await signIn(auth, email: "alice@example.com")
            #expect(stored != nil, "the sign-in was not saved to the keyring")
            let portal = try Portal(credentials: session)
            let ended = Signal()
            portal.onSessionInvalidated { ended.fire() }
            _ = try await emulator.admin("POST", "sessions/revoke", body: [:])

            await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.clientsMe)) { _ = try await portal.client }
            await ended.wait()
            #expect(try await auth.restoreSession() == nil, "the revoked session was restored")
            #expect(stored == nil, "the revoked session is still in the keyring")
        }

        @Test func anInvalidatedSessionLeavesTheKeyringButANewerOneStays() async throws {
            let auth = try desktopAuth()
            let first = try await signIn(auth, email: "alice@example.com")
            first.invalidate()
            #expect(try await auth.restoreSession() == nil)
            #expect(stored == nil, "the invalidated session is still in the keyring")

            let older = try await signIn(auth, email: "alice@example.com")
            let newer = try await signIn(auth, email: "new-person@example.com")
            older.invalidate()
            #expect(try await auth.restoreSession()?.endUserId == newer.endUserId, "the newer session was deleted")
            // Another run of the app finds it too.
            #expect(try await desktopAuth().restoreSession()?.endUserId == newer.endUserId)
            try await auth.clearPersistedSession()
        }

        @Test func theCLIsClientLineNamesTheAppEnvironmentAndAddresses() async throws {
            let redirect = try await signedInRedirect(email: "alice@example.com")
            #expect(run(["handle-redirect", "-"], input: redirect).status == 0)
            let client = try #require(run(["client"]).last["client"] as? [String: Any])
            #expect((client["custodian"] as? [String: Any])?["name"] as? String == "Portal Sign-In Demo")
            #expect((client["environment"] as? [String: Any])?["name"] as? String == "Local development")
            let addresses = client["addresses"] as? [String: String] ?? [:]
            #expect(addresses.keys.sorted() == ["eip155", "solana"])
            #expect((client["wallets"] as? [[String: Any]])?.count == 2)
            #expect(run(["sign-out"]).status == 0)
        }
    }
}
