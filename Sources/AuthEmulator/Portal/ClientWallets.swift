import AuthBase
import Foundation

/// The wallets of an emulated client: for a user configured with `"wallets": true`, one SECP256K1
/// wallet (its EVM address in `eip155`) and one ED25519 wallet (its Solana address in `solana`),
/// derived from the environment and email so they stay the same across resets and restarts. Other
/// users' clients have no wallet yet, as a client before its first `generate`.
enum ClientWallets {
    /// When every emulated wallet was made (a fixed moment: the wallets are derived, not created).
    static let createdAt = "2026-01-01T00:00:00.000Z"

    struct Derived {
        let evmAddress: String
        let solanaAddress: String
        let wallets: [PortalWire.Wallet]
    }

    static func of(_ user: EndUser) -> Derived? {
        guard user.hasWallets else { return nil }
        let seed = "\(user.environmentId)|\(user.email)"
        let secp = Crypto.sha256(Array("secp256k1|\(seed)".utf8))
        let ed = Crypto.sha256(Array("ed25519|\(seed)".utf8))
        // An EVM address is 20 bytes of a key's hash; a Solana address is its 32-byte key in base58.
        let evmAddress = "0x" + Hex.encode(Crypto.sha256(secp).suffix(20))
        let solanaAddress = Base58.encode(ed)
        func wallet(_ curve: String, _ publicKey: String) -> PortalWire.Wallet {
            let id = Identifiers.uuid(fromHex: Crypto.sha256Hex("wallet|\(curve)|\(seed)"))
            let pair = PortalWire.SharePair(
                id: Identifiers.uuid(fromHex: Crypto.sha256Hex("signing|\(curve)|\(seed)")), status: "completed", createdAt: createdAt)
            return PortalWire.Wallet(
                id: id, curve: curve, publicKey: publicKey, createdAt: createdAt, backupSharePairs: [], signingSharePairs: [pair])
        }
        return Derived(
            evmAddress: evmAddress, solanaAddress: solanaAddress,
            wallets: [wallet("SECP256K1", "02" + Hex.encode(secp)), wallet("ED25519", Hex.encode(ed))])
    }

    /// `metadata` of `clients/me`: the addresses by namespace (none without wallets).
    static func metadata(_ derived: Derived?) -> PortalWire.Metadata {
        guard let derived else { return PortalWire.Metadata(namespaces: [:]) }
        return PortalWire.Metadata(namespaces: [
            "eip155": PortalWire.NamespaceAddress(address: derived.evmAddress, curve: "SECP256K1"),
            "solana": PortalWire.NamespaceAddress(address: derived.solanaAddress, curve: "ED25519")
        ])
    }
}

/// Bitcoin's base58 alphabet, as Solana writes addresses.
enum Base58 {
    private static let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")

    static func encode(_ bytes: [UInt8]) -> String {
        var digits: [Int] = [] // base 58, least significant first
        for byte in bytes {
            var carry = Int(byte)
            for index in digits.indices {
                carry += digits[index] << 8
                digits[index] = carry % 58
                carry /= 58
            }
            while carry > 0 {
                digits.append(carry % 58)
                carry /= 58
            }
        }
        let zeros = bytes.prefix { $0 == 0 }.count
        return String(repeating: "1", count: zeros) + String(digits.reversed().map { alphabet[$0] })
    }
}
