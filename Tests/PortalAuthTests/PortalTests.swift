import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

/// `Portal(credentials:)`: the session a sign-in returned, on the API it came from.
@Suite("Portal(credentials:)", .timeLimit(.minutes(1)))
struct PortalTests {
    static let clientWithWallets = #"""
        {"data":{"id":"cl_1","endUserId":"eu_1","isAccountAbstracted":false,"createdAt":"2026-01-02T03:04:05.000Z",
        "custodian":{"id":"cu_1","name":"Acme Wallet"},"environment":{"id":"env_1","name":"Testnet","backupWithPortalEnabled":true},
        "metadata":{"namespaces":{"eip155":{"address":"0x4a1bcd00000000000000000000000000000000ef","curve":"SECP256K1"},
        "solana":{"address":"7Np41oeYqPefeNQEHSv1UDhYrehxin3NStELsSKCT4K2","curve":"ED25519"}}},
        "wallets":[{"id":"w_1","curve":"SECP256K1","publicKey":"02ab","createdAt":"2026-01-02T03:04:05.000Z",
        "backupSharePairs":[{"id":"b_1","status":"completed","createdAt":"2026-01-02T03:04:05.000Z","backupMethod":"PASSWORD"}],
        "signingSharePairs":[{"id":"s_1","status":"completed","createdAt":"2026-01-02T03:04:05.000Z"}]},
        {"id":"w_2","curve":"ED25519","publicKey":"cd01","createdAt":"2026-01-02T03:04:05.000Z","backupSharePairs":[],"signingSharePairs":[]}]}}
        """#
    static let clientWithoutWallets = #"""
        {"data":{"id":"cl_2","endUserId":"eu_2","isAccountAbstracted":false,"createdAt":"2026-01-02T03:04:05.000Z",
        "custodian":{"id":"cu_1","name":"Acme Wallet"},"environment":null,"metadata":{"namespaces":{}},"wallets":[]}}
        """#

    /// A signed-in session from `f.auth`, and a Portal for it on the fixture's transport.
    private func signedIn(_ f: PortalCoreFixture) async throws -> Portal {
        f.transport.reply(Wire.session())
        let result = try #require(try await f.auth.handleRedirect(PortalCoreFixture.redirect())?.authenticated)
        return try Portal(credentials: result.session, transport: f.transport)
    }

    @Test func theClientIsReadWithTheSessionFromTheHostItCameFrom() async throws {
        let f = try PortalCoreFixture()
        let portal = try await signedIn(f)
        f.transport.reply(Self.clientWithWallets)
        let client = try #require(try await portal.client)
        let request = try #require(f.transport.requests.last)
        #expect(request.url.absoluteString == "http://127.0.0.1:8790/api/v3/clients/me")
        let bearer = request.headers["Authorization"] == "Bearer " + Secrets.sessionToken
        #expect(bearer, "Authorization is not Bearer <clientSessionToken>")
        #expect(request.headers["x-portal-auth-environment-id"] == "local-dev")

        #expect(client.id == "cl_1")
        #expect(client.custodian == ClientInfo.Custodian(id: "cu_1", name: "Acme Wallet"))
        #expect(client.environment?.name == "Testnet")
        #expect(client.metadata.namespaces.eip155?.address == "0x4a1bcd00000000000000000000000000000000ef")
        #expect(client.metadata.namespaces.solana?.address == "7Np41oeYqPefeNQEHSv1UDhYrehxin3NStELsSKCT4K2")
        #expect(client.metadata.namespaces.bip122 == nil)
        #expect(client.wallets.map(\.curve) == ["SECP256K1", "ED25519"])
        #expect(client.wallets.first?.backupSharePairs.map(\.backupMethod) == ["PASSWORD"])
        #expect(client.wallets.first?.signingSharePairs.map(\.status) == ["completed"])
    }

    @Test func addressesAreByNamespace() async throws {
        let f = try PortalCoreFixture()
        let portal = try await signedIn(f)
        f.transport.reply(Self.clientWithWallets)
        let addresses = try await portal.addresses
        #expect(addresses[.eip155] == .some("0x4a1bcd00000000000000000000000000000000ef"))
        #expect(addresses[.solana] == .some("7Np41oeYqPefeNQEHSv1UDhYrehxin3NStELsSKCT4K2"))
        #expect(addresses[.tron] == .some(nil))
    }

    @Test func aClientWithoutWalletsHasNoAddresses() async throws {
        let f = try PortalCoreFixture()
        let portal = try await signedIn(f)
        f.transport.reply(Self.clientWithoutWallets)
        let client = try #require(try await portal.client)
        #expect(client.wallets.isEmpty)
        #expect(client.environment == nil)
        #expect(client.metadata.namespaces == ClientInfo.Namespaces())
        f.transport.reply(Self.clientWithoutWallets)
        #expect(try await portal.addresses.values.allSatisfy { $0 == nil })
    }

    @Test func a401CallsTheHandlerOnceOnTheMainActorAndEndsTheStoredSession() async throws {
        let f = try PortalCoreFixture()
        let portal = try await signedIn(f)
        let calls = Box(0)
        let called = Signal()
        portal.onSessionInvalidated {
            MainActor.assertIsolated()
            calls.withLock { $0 += 1 }
            called.fire()
        }
        f.transport.reply(401, Wire.error401)
        await #expect(throws: PortalRequestsError.unauthorized(path: PortalWire.Path.clientsMe)) { _ = try await portal.client }
        await called.wait()
        // The session is over: no request, no second call.
        await #expect(throws: PortalCredentialError.sessionInvalidated) { _ = try await portal.client }
        portal.credentials.invalidate()
        await MainActor.run {}
        #expect(calls.current == 1)
        #expect(f.transport.paths.filter { $0 == PortalWire.Path.clientsMe }.count == 1)
        #expect(try await f.auth.restoreSession() == nil, "the session Portal refused is still restored")
    }

    @Test func invalidatingTheSessionCallsTheHandler() async throws {
        let f = try PortalCoreFixture()
        let portal = try await signedIn(f)
        let called = Signal()
        portal.onSessionInvalidated { called.fire() }
        portal.credentials.invalidate()
        await called.wait()
        #expect(called.hasFired)
    }

    @Test func aLateSubscriberIsCalledOnce() async throws {
        let f = try PortalCoreFixture()
        let portal = try await signedIn(f)
        portal.credentials.invalidate()
        let called = Signal()
        portal.onSessionInvalidated { called.fire() }
        await called.wait()
        #expect(called.hasFired)
    }

    @Test func clearSessionCallsNoHandlerAndDeletesTheStoredCopy() async throws {
        let f = try PortalCoreFixture()
        let portal = try await signedIn(f)
        let calls = Box(0)
        portal.onSessionInvalidated { calls.withLock { $0 += 1 } }
        portal.clearSession()
        await #expect(throws: PortalCredentialError.sessionInvalidated) { _ = try await portal.client }
        await MainActor.run {}
        #expect(calls.current == 0, "the app's own sign-out was reported as an ended session")
        #expect(try await f.auth.restoreSession() == nil)
    }

    @Test func aCancelledSubscriptionIsNotCalled() async throws {
        let f = try PortalCoreFixture()
        let portal = try await signedIn(f)
        let calls = Box(0)
        let subscription = portal.onSessionInvalidated { calls.withLock { $0 += 1 } }
        subscription.cancel()
        subscription.cancel()
        let other = Signal()
        portal.onSessionInvalidated { other.fire() }
        portal.credentials.invalidate()
        await other.wait()
        #expect(calls.current == 0)
    }

    @Test func aSessionFromElsewhereNeedsItsHost() async throws {
        let session = PortalSession(clientSessionToken: Secrets.sessionToken, endUserId: "eu_1")
        #expect(throws: PortalAuthError.invalidArgument(name: "credentials")) {
            try Portal(credentials: session, transport: ScriptedTransport())
        }
        let transport = ScriptedTransport()
        transport.reply(Self.clientWithoutWallets)
        let portal = try Portal(credentials: session, apiHost: "127.0.0.1:8790", authEnvironmentId: "local-dev", transport: transport)
        #expect(try await portal.client?.id == "cl_2")
        #expect(portal.credentials === session)
    }
}
