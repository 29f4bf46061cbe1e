import FoundationEssentials

/// A wallet of the session's sub-organization with its accounts, as the SDK's `Wallet` (the
/// `TurnkeyContext.wallets` state): `list_wallets`, then `list_wallet_accounts` for each.
public struct Wallet: Sendable, Equatable, Identifiable {
    /// Unique identifier for a given Wallet.
    public let walletId: String
    /// Human-readable name for a Wallet.
    public let walletName: String
    /// Seconds since 1970, as Turnkey writes them.
    public let createdAt: String
    /// Seconds since 1970 of the last change.
    public let updatedAt: String
    /// True when the wallet was exported.
    public let exported: Bool
    /// True when the wallet was imported.
    public let imported: Bool
    /// The wallet's accounts, as `list_wallet_accounts` lists them.
    public let accounts: [v1WalletAccount]

    /// `walletId`.
    public var id: String { walletId }

    /// Every field as Turnkey gives it.
    public init(
        walletId: String, walletName: String, createdAt: String, updatedAt: String, exported: Bool, imported: Bool,
        accounts: [v1WalletAccount]
    ) {
        self.walletId = walletId
        self.walletName = walletName
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.exported = exported
        self.imported = imported
        self.accounts = accounts
    }
}

// swift-format-ignore: TypeNamesShouldBeCapitalized
/// One account of a wallet (swagger `v1WalletAccount`): its address and how it was derived. The
/// curve, path format and address format are Turnkey's names (`CURVE_SECP256K1`…), kept as written
/// so a format this package does not list still reads.
public struct v1WalletAccount: Sendable, Equatable, Identifiable {
    /// Unique identifier for a given Wallet Account.
    public let walletAccountId: String
    /// The Wallet the Account was derived from.
    public let walletId: String
    /// The Organization the Account belongs to.
    public let organizationId: String
    /// Address generated using the Wallet seed and Account parameters.
    public let address: String
    /// Cryptographic curve used to generate the Account (`CURVE_SECP256K1`…).
    public let curve: String
    /// Path format used to generate the Account (`PATH_FORMAT_BIP32`).
    public let pathFormat: String
    /// Path used to generate the Account (`m/44'/60'/0'/0/0`).
    public let path: String
    /// Address format used to generate the Account (`ADDRESS_FORMAT_ETHEREUM`…).
    public let addressFormat: String
    /// The public component of the account's key pair, when Turnkey gives it.
    public let publicKey: String?

    /// `walletAccountId`.
    public var id: String { walletAccountId }

    /// Every field as Turnkey gives it.
    public init(
        walletAccountId: String, walletId: String, organizationId: String, address: String, curve: String,
        pathFormat: String, path: String, addressFormat: String, publicKey: String? = nil
    ) {
        self.walletAccountId = walletAccountId
        self.walletId = walletId
        self.organizationId = organizationId
        self.address = address
        self.curve = curve
        self.pathFormat = pathFormat
        self.path = path
        self.addressFormat = addressFormat
        self.publicKey = publicKey
    }
}

/// The SDK's short name.
public typealias WalletAccount = v1WalletAccount

extension TurnkeyAuth {
    /// The session's wallets with their accounts, as the SDK's `fetchWallets`: `list_wallets`, then
    /// `list_wallet_accounts` for each wallet, every request stamped with the session's key.
    public func wallets(sessionKey: String? = nil) async throws -> [Wallet] {
        let key = try resolvedSessionKey(sessionKey)
        let (session, signingKey) = try await mutex.withLock { try await self.signingSession(key) }
        let organizationId = session.organizationId
        let listed = try await api.listWallets(organizationId: organizationId, key: signingKey).wallets
        guard let listed else { throw TurnkeyAuthError.malformedResponse(path: TurnkeyWire.APIPath.listWallets, missing: "wallets") }
        var wallets: [Wallet] = []
        for entry in listed {
            guard let walletId = entry["walletId"]?.stringValue?.nonBlank else {
                throw TurnkeyAuthError.malformedResponse(path: TurnkeyWire.APIPath.listWallets, missing: "wallets[].walletId")
            }
            let path = TurnkeyWire.APIPath.listWalletAccounts
            guard
                let accounts = try await api.listWalletAccounts(organizationId: organizationId, walletId: walletId, key: signingKey)
                    .accounts
            else { throw TurnkeyAuthError.malformedResponse(path: path, missing: "accounts") }
            wallets.append(
                Wallet(
                    walletId: walletId, walletName: entry["walletName"]?.stringValue ?? "",
                    createdAt: entry["createdAt"]?["seconds"]?.stringValue ?? "",
                    updatedAt: entry["updatedAt"]?["seconds"]?.stringValue ?? "",
                    exported: entry["exported"]?.boolValue ?? false, imported: entry["imported"]?.boolValue ?? false,
                    accounts: try accounts.map { try Self.walletAccount($0, path: path) }))
        }
        return wallets
    }

    private static func walletAccount(_ json: JSONValue, path: String) throws -> v1WalletAccount {
        func field(_ name: String) throws -> String {
            guard let value = json[name]?.stringValue?.nonBlank else {
                throw TurnkeyAuthError.malformedResponse(path: path, missing: "accounts[].\(name)")
            }
            return value
        }
        return v1WalletAccount(
            walletAccountId: try field("walletAccountId"), walletId: try field("walletId"),
            organizationId: try field("organizationId"), address: try field("address"), curve: try field("curve"),
            pathFormat: try field("pathFormat"), path: try field("path"), addressFormat: try field("addressFormat"),
            publicKey: json["publicKey"]?.stringValue)
    }
}
