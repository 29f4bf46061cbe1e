import AuthTestSupport
import Foundation
import PortalAuth
import PortalAuthGNOME
import Testing

extension GNOMEIntegration {
    /// A sign-out asked for while a grant exchange hangs at the server. The FIFO mutex makes the
    /// sign-out wait for the exchange (so it cannot land between the exchange and its save), and
    /// the transport's deadline bounds that wait: the sign-out returns within the deadline, not
    /// when the server finally answers, the grant is sent once, and the keyring and the client agree.
    @Suite(.serialized) struct SignOutDuringExchangeTests: KeyringSuite {
        let emulator: AdministeredEmulator
        let cli: CLI

        init() async throws {
            (emulator, cli) = try await Self.cleanStart()
        }

        @Test func aSignOutBehindAHungExchangeReturnsWithinTheDeadline() async throws {
            let sessionKey = "sign-out-during-exchange"
            let deadline: UInt32 = 2
            let auth = try PortalAuthFactory.make(
                PortalConfiguration(apiHost: emulator.apiHost, authEnvironmentId: "local-dev", sessionKey: sessionKey),
                transport: SoupTransport(timeoutSeconds: deadline))
            try await auth.clearPersistedSession()
            let redirect = try await signedInRedirect()
            try await emulator.fault(path: "/api/v3/auth/oauth/tokens", kind: "hang", seconds: 30)

            let exchange = Task { try await auth.handleRedirect(redirect) }
            // The hang has met the exchange: the grant is at the server, held.
            let held = await emulator.waitUntilFaultsTaken()
            try #require(held, "the exchange never reached the server")

            let signOutStarted = Date()
            try await auth.clearPersistedSession()
            let waited = Date().timeIntervalSince(signOutStarted)
            #expect(waited < Double(deadline) + 1.5, "the sign-out waited \(waited) s behind a server that holds for 30 s")

            let outcome = await exchange.result
            var failure: TransportError?
            if case .failure(let error) = outcome { failure = error as? TransportError }
            #expect(failure?.kind == .timedOut, "the exchange must end at its deadline")

            // One exchange, abandoned by the client (logged 0), never handled, never sent again.
            #expect(try await emulator.requests("POST", "/api/v3/auth/oauth/tokens").map(\.status) == [0])
            let keyringEmpty = SecretTool.lookup(authEnvironmentId: "local-dev", sessionKey: sessionKey) == nil
            #expect(keyringEmpty, "a session was saved behind the sign-out")
            #expect(try await auth.restoreSession() == nil, "the client and the keyring disagree")
        }
    }
}
