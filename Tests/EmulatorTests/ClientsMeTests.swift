import Foundation
import Testing

/// `clients/me` answers what Portal's does for a signed-in app: the app (custodian) and environment
/// names from the config, and the client's wallets with their addresses, or none.
@Suite("clients/me: custodian, environment, addresses and wallets")
final class ClientsMeTests: EmulatorSuite {
    private func client(of email: String) async throws -> [String: Any] {
        let exchanged = try await client.exchange(try await client.googleGrant(email: email)).data ?? [:]
        let me = try await client.clientsMe(exchanged["clientSessionToken"] as? String ?? "")
        #expect(me.status == 200)
        return me.data ?? [:]
    }

    @Test func aConfiguredUserWithWalletsHasAnEVMAndASolanaAddress() async throws {
        let me = try await client(of: "alice@example.com")
        #expect((me["custodian"] as? [String: Any])?["name"] as? String == "Portal Sign-In Demo")
        #expect((me["environment"] as? [String: Any])?["name"] as? String == "Local development")
        #expect((me["environment"] as? [String: Any])?["id"] as? String == "local-dev")
        let namespaces = (me["metadata"] as? [String: Any])?["namespaces"] as? [String: [String: Any]] ?? [:]
        let evm = namespaces["eip155"]?["address"] as? String ?? ""
        let solana = namespaces["solana"]?["address"] as? String ?? ""
        #expect(evm.count == 42 && evm.hasPrefix("0x") && evm.dropFirst(2).allSatisfy(\.isHexDigit))
        let base58 = Set("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")
        #expect((32...44).contains(solana.count) && solana.allSatisfy(base58.contains))
        #expect(namespaces["eip155"]?["curve"] as? String == "SECP256K1")
        #expect(namespaces["solana"]?["curve"] as? String == "ED25519")
        let wallets = me["wallets"] as? [[String: Any]] ?? []
        #expect(wallets.compactMap { $0["curve"] as? String } == ["SECP256K1", "ED25519"])
        #expect(wallets.allSatisfy { ($0["publicKey"] as? String)?.isEmpty == false && $0["signingSharePairs"] is [Any] })
        // The same client keeps its addresses in the next session.
        let again = try await client(of: "alice@example.com")
        let againNamespaces = (again["metadata"] as? [String: Any])?["namespaces"] as? [String: [String: Any]] ?? [:]
        #expect(againNamespaces["eip155"]?["address"] as? String == evm)
    }

    @Test func anotherUserHasNoWalletYet() async throws {
        let me = try await client(of: "someone-new@example.com")
        #expect((me["custodian"] as? [String: Any])?["name"] as? String == "Portal Sign-In Demo")
        #expect(((me["metadata"] as? [String: Any])?["namespaces"] as? [String: Any])?.isEmpty == true)
        #expect((me["wallets"] as? [Any])?.isEmpty == true)
    }

    @Test func theDashboardShowsTheNamesAndAddresses() async throws {
        let me = try await client(of: "alice@example.com")
        let namespaces = (me["metadata"] as? [String: Any])?["namespaces"] as? [String: [String: Any]] ?? [:]
        let page = try await client.get("/")
        #expect(page.status == 200)
        expectQuietly(page.text.contains("Portal Sign-In Demo") && page.text.contains("Local development"), "the app and environment names")
        expectQuietly(page.text.contains(namespaces["eip155"]?["address"] as? String ?? "missing"), "alice's EVM address")
        expectQuietly(page.text.contains(namespaces["solana"]?["address"] as? String ?? "missing"), "alice's Solana address")
        expectQuietly(page.text.contains("No wallet"), "the TOTP user, who has none")
    }
}
