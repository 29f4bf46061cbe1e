import AuthBase
import Foundation

/// A wallet `signup_v2` created for a sub-organization, with the accounts it asked for.
struct EmulatedWallet {
    let walletId: String
    let walletName: String
    let organizationId: String
    let mnemonicLength: Int
    let accounts: [EmulatedWalletAccount]
    let createdAt: Int
}

/// One account of a wallet. The emulator holds no seed: the address is derived from the wallet ID,
/// curve and path (the same request gives the same address), in the format's own shape.
struct EmulatedWalletAccount {
    let walletAccountId: String
    let curve: String
    let pathFormat: String
    let path: String
    let addressFormat: String
    let address: String
}

/// How `signup_v2`'s `wallet` is checked and turned into a wallet: every field by Turnkey's swagger
/// (v1WalletParams, v1WalletAccountParams), each refusal a 400 naming the field.
enum WalletShape {
    static let curves: Set<String> = ["CURVE_SECP256K1", "CURVE_ED25519", "CURVE_P256"]
    static let pathFormats: Set<String> = ["PATH_FORMAT_BIP32"]
    static let mnemonicLengths: Set<Int> = [12, 15, 18, 21, 24]

    /// The address formats the emulator derives, with the curve each needs (nil: any curve).
    static let addressFormats: [String: String?] = [
        "ADDRESS_FORMAT_ETHEREUM": "CURVE_SECP256K1",
        "ADDRESS_FORMAT_SOLANA": "CURVE_ED25519",
        "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH": "CURVE_SECP256K1",
        "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH": "CURVE_SECP256K1",
        "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH": "CURVE_SECP256K1",
        "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH": "CURVE_SECP256K1",
        "ADDRESS_FORMAT_COMPRESSED": nil,
        "ADDRESS_FORMAT_UNCOMPRESSED": nil
    ]

    /// Fields the body names that Turnkey's swagger does not have, as `wallet.accounts[0].curv`.
    static func unknownFields(in body: Data) -> String? {
        guard let object = JSON.object(from: body) else { return nil }
        if let name = object.keys.sorted().first(where: { !TurnkeyWire.SignupRequest.fieldNames.contains($0) }) { return name }
        guard let wallet = object["wallet"] as? [String: Any] else { return nil }
        if let name = wallet.keys.sorted().first(where: { !TurnkeyWire.WalletParams.fieldNames.contains($0) }) { return "wallet.\(name)" }
        for (index, account) in ((wallet["accounts"] as? [Any]) ?? []).enumerated() {
            guard let account = account as? [String: Any] else { continue }
            if let name = account.keys.sorted().first(where: { !TurnkeyWire.WalletAccountParams.fieldNames.contains($0) }) {
                return "wallet.accounts[\(index)].\(name)"
            }
        }
        return nil
    }

    /// Checks the values of a decoded `wallet`.
    static func check(_ wallet: TurnkeyWire.WalletParams) throws(TurnkeyError) {
        guard !wallet.walletName.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalidArgument("wallet.walletName must not be empty")
        }
        if let length = wallet.mnemonicLength, !mnemonicLengths.contains(length) {
            throw .invalidArgument("wallet.mnemonicLength must be one of 12, 15, 18, 21, 24")
        }
        var seen: Set<String> = []
        for (index, account) in wallet.accounts.enumerated() {
            let field = "wallet.accounts[\(index)]"
            guard curves.contains(account.curve) else {
                throw .invalidArgument("\(field).curve must be one of \(curves.sorted().joined(separator: ", "))")
            }
            guard pathFormats.contains(account.pathFormat) else { throw .invalidArgument("\(field).pathFormat must be PATH_FORMAT_BIP32") }
            guard isBIP32Path(account.path) else {
                throw .invalidArgument("\(field).path must be a BIP-32 path such as m/44'/60'/0'/0/0")
            }
            guard let needed = addressFormats[account.addressFormat] else {
                throw .invalidArgument(
                    "\(field).addressFormat \(account.addressFormat) is not one the emulator derives (\(addressFormats.keys.sorted().joined(separator: ", ")))"
                )
            }
            if let needed, needed != account.curve {
                throw .invalidArgument("\(field).curve must be \(needed) for \(account.addressFormat)")
            }
            guard seen.insert([account.curve, account.path, account.addressFormat].joined(separator: " ")).inserted else {
                throw .invalidArgument("\(field) repeats an account of the same wallet")
            }
        }
    }

    /// `m`, then `/N` or `/N'` parts.
    static func isBIP32Path(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.first == "m" else { return false }
        return parts.dropFirst().allSatisfy { part in
            let digits = part.hasSuffix("'") ? part.dropLast() : part[...]
            return !digits.isEmpty && digits.count <= 10 && digits.allSatisfy(\.isASCIIDigit)
        }
    }

    /// The wallet with its accounts' addresses.
    static func make(_ params: TurnkeyWire.WalletParams, organizationId: String, now: Int) -> EmulatedWallet {
        let walletId = Identifiers.random()
        let accounts = params.accounts.map { account in
            EmulatedWalletAccount(
                walletAccountId: Identifiers.random(), curve: account.curve, pathFormat: account.pathFormat,
                path: account.path, addressFormat: account.addressFormat,
                address: WalletAddresses.address(walletId: walletId, account: account))
        }
        return EmulatedWallet(
            walletId: walletId, walletName: params.walletName, organizationId: organizationId,
            mnemonicLength: params.mnemonicLength ?? 12, accounts: accounts, createdAt: now)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

/// Plausible addresses: the right length, alphabet and checksum for the format, derived from the
/// wallet ID, curve and path (no key exists behind them).
enum WalletAddresses {
    static func address(walletId: String, account: TurnkeyWire.WalletAccountParams) -> String {
        let seed = Crypto.sha256(Array([walletId, account.curve, account.path].joined(separator: "\n").utf8))
        switch account.addressFormat {
        case "ADDRESS_FORMAT_ETHEREUM": return "0x" + Hex.encode(seed.prefix(20))
        case "ADDRESS_FORMAT_SOLANA": return base58(seed)
        case "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH": return segwitV0(hrp: "bc", program: Array(seed.prefix(20)))
        case "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH", "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH":
            return segwitV0(hrp: "tb", program: Array(seed.prefix(20)))
        case "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH": return segwitV0(hrp: "bcrt", program: Array(seed.prefix(20)))
        case "ADDRESS_FORMAT_UNCOMPRESSED": return "04" + Hex.encode(seed + Crypto.sha256(seed))
        default: return (seed[31] & 1 == 0 ? "02" : "03") + Hex.encode(seed)
        }
    }

    private static let base58Alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")

    static func base58(_ bytes: [UInt8]) -> String {
        var digits: [Int] = []
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
        return String(repeating: "1", count: zeros) + String(digits.reversed().map { base58Alphabet[$0] })
    }

    private static let bech32Alphabet = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l")

    /// BIP-173 bech32, witness version 0.
    static func segwitV0(hrp: String, program: [UInt8]) -> String {
        var data: [UInt8] = [0]
        var accumulator = 0
        var bits = 0
        for byte in program {
            accumulator = (accumulator << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                data.append(UInt8((accumulator >> bits) & 31))
            }
        }
        if bits > 0 { data.append(UInt8((accumulator << (5 - bits)) & 31)) }
        let expanded = hrp.utf8.map { $0 >> 5 } + [0] + hrp.utf8.map { $0 & 31 }
        let polymod = bech32Polymod(expanded + data + [0, 0, 0, 0, 0, 0]) ^ 1
        let checksum = (0..<6).map { UInt8((polymod >> (5 * (5 - $0))) & 31) }
        return hrp + "1" + String((data + checksum).map { bech32Alphabet[Int($0)] })
    }

    private static func bech32Polymod(_ values: [UInt8]) -> Int {
        let generator = [0x3b6a_57b2, 0x2650_8e6d, 0x1ea1_19fa, 0x3d42_33dd, 0x2a14_62b3]
        var check = 1
        for value in values {
            let top = check >> 25
            check = ((check & 0x1ff_ffff) << 5) ^ Int(value)
            for index in 0..<5 where (top >> index) & 1 == 1 { check ^= generator[index] }
        }
        return check
    }
}
