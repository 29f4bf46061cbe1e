import FoundationEssentials

/// What Portal knows about the signed-in client (`GET /api/v3/clients/me`), in the shape of
/// PortalSwift's `ClientResponse`: the custodian (your organisation in Portal), the environment,
/// the wallets' addresses by namespace (`metadata.namespaces`) and the wallets. A client that has no
/// wallet yet has no namespaces and no wallets.
public struct ClientInfo: Sendable, Equatable {
    /// Portal's ID of the client (the end user's device-independent wallet holder).
    public let id: String
    /// The end user the client belongs to (the session's `endUserId`).
    public let endUserId: String?
    /// Whether the client's EVM account is account-abstracted (gas sponsored).
    public let isAccountAbstracted: Bool?
    /// When the client was created (ISO 8601, as Portal sends it).
    public let createdAt: String?
    /// When the client's wallet was ejected from Portal, or nil.
    public let ejectedAt: String?
    /// The custodian the client belongs to: your organisation in Portal (empty fields when Portal sent none).
    public let custodian: Custodian
    /// The environment the client lives in, when Portal names it.
    public let environment: Environment?
    /// The addresses of the client's wallets, by namespace.
    public let metadata: Metadata
    /// The client's wallets, one per curve; empty before the first wallet is created.
    public let wallets: [Wallet]

    /// Client information with these values (for tests and fakes); `getClient()` makes it from Portal's answer.
    public init(
        id: String, endUserId: String?, isAccountAbstracted: Bool?, createdAt: String? = nil, ejectedAt: String? = nil,
        custodian: Custodian = Custodian(id: "", name: ""), environment: Environment? = nil,
        metadata: Metadata = Metadata(namespaces: Namespaces()), wallets: [Wallet] = []
    ) {
        self.id = id
        self.endUserId = endUserId
        self.isAccountAbstracted = isAccountAbstracted
        self.createdAt = createdAt
        self.ejectedAt = ejectedAt
        self.custodian = custodian
        self.environment = environment
        self.metadata = metadata
        self.wallets = wallets
    }

    /// The organisation that holds the client in Portal.
    public struct Custodian: Sendable, Equatable {
        /// Portal's ID of the custodian.
        public let id: String
        /// The name shown in Portal's dashboard, for "signed in to …".
        public let name: String
        /// A custodian with this ID and name.
        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// A Portal environment (for example "Production" or "Testnet").
    public struct Environment: Sendable, Equatable {
        /// Portal's ID of the environment.
        public let id: String
        /// The environment's name in Portal's dashboard.
        public let name: String
        /// An environment with this ID and name.
        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// `metadata` of the client: where its addresses are.
    public struct Metadata: Sendable, Equatable {
        /// The client's addresses, by chain namespace.
        public let namespaces: Namespaces
        /// Metadata holding these namespaces.
        public init(namespaces: Namespaces) { self.namespaces = namespaces }
    }

    /// The client's address in each chain namespace it has a wallet for; nil where it has none.
    public struct Namespaces: Sendable, Equatable {
        /// EVM chains (`eip155:1`, `eip155:137`…).
        public let eip155: NamespaceItem?
        /// Solana.
        public let solana: NamespaceItem?
        /// Bitcoin.
        public let bip122: NamespaceItem?
        /// Stellar.
        public let stellar: NamespaceItem?
        /// Tron.
        public let tron: NamespaceItem?

        /// The given addresses; a namespace left out has no address.
        public init(
            eip155: NamespaceItem? = nil, solana: NamespaceItem? = nil, bip122: NamespaceItem? = nil,
            stellar: NamespaceItem? = nil, tron: NamespaceItem? = nil
        ) {
            self.eip155 = eip155
            self.solana = solana
            self.bip122 = bip122
            self.stellar = stellar
            self.tron = tron
        }

        /// The item of `namespace`.
        public subscript(namespace: PortalNamespace) -> NamespaceItem? {
            switch namespace {
            case .eip155: eip155
            case .solana: solana
            case .bip122: bip122
            case .stellar: stellar
            case .tron: tron
            }
        }
    }

    /// One namespace's address, and the curve of the key behind it.
    public struct NamespaceItem: Sendable, Equatable {
        /// The address as the chain writes it (`0x…` on EVM chains, base58 on Solana).
        public let address: String
        /// `SECP256K1` (EVM, Bitcoin, Tron) or `ED25519` (Solana, Stellar).
        public let curve: String
        /// An address with the curve of its key.
        public init(address: String, curve: String) {
            self.address = address
            self.curve = curve
        }
    }

    /// One of the client's wallets: the key shares of one curve.
    public struct Wallet: Sendable, Equatable {
        /// Portal's ID of the wallet.
        public let id: String
        /// `SECP256K1` or `ED25519`.
        public let curve: String
        /// The wallet's public key, hex.
        public let publicKey: String
        /// When the wallet was created (ISO 8601).
        public let createdAt: String
        /// The share pairs backed up (password, cloud…).
        public let backupSharePairs: [SharePair]
        /// The share pairs that sign.
        public let signingSharePairs: [SharePair]

        /// A wallet with these values; its share pairs default to none.
        public init(
            id: String, curve: String, publicKey: String, createdAt: String, backupSharePairs: [SharePair] = [],
            signingSharePairs: [SharePair] = []
        ) {
            self.id = id
            self.curve = curve
            self.publicKey = publicKey
            self.createdAt = createdAt
            self.backupSharePairs = backupSharePairs
            self.signingSharePairs = signingSharePairs
        }
    }

    /// A pair of key shares of a wallet; backup pairs name their `backupMethod` (`GDRIVE`, `PASSWORD`…).
    public struct SharePair: Sendable, Equatable {
        /// Portal's ID of the share pair.
        public let id: String
        /// `completed` or `incomplete`.
        public let status: String
        /// When the pair was made (ISO 8601).
        public let createdAt: String
        /// How a backup pair was backed up; nil for a signing pair.
        public let backupMethod: String?
        /// A share pair; leave `backupMethod` nil for a signing pair.
        public init(id: String, status: String, createdAt: String, backupMethod: String? = nil) {
            self.id = id
            self.status = status
            self.createdAt = createdAt
            self.backupMethod = backupMethod
        }
    }
}

/// The chain namespaces a Portal client can have an address in (PortalSwift's `PortalNamespace`).
public enum PortalNamespace: String, Sendable, CaseIterable, Hashable {
    /// EVM chains (Ethereum, Polygon, Base…).
    case eip155
    /// Solana.
    case solana
    /// Bitcoin.
    case bip122
    /// Stellar.
    case stellar
    /// Tron.
    case tron
}

extension ClientInfo {
    /// `id`: the client's ID, checked by the caller to be non-blank.
    init(id: String, wire: PortalWire.Client) {
        let namespaces = wire.metadata?.namespaces ?? [:]
        func item(_ namespace: PortalNamespace) -> NamespaceItem? {
            guard let given = namespaces[namespace.rawValue], let address = given.address, !address.isBlank else { return nil }
            return NamespaceItem(address: address, curve: given.curve ?? "")
        }
        func pairs(_ given: [PortalWire.SharePair]?) -> [SharePair] {
            (given ?? []).map {
                SharePair(id: $0.id ?? "", status: $0.status ?? "", createdAt: $0.createdAt ?? "", backupMethod: $0.backupMethod)
            }
        }
        self.init(
            id: id, endUserId: wire.endUserId, isAccountAbstracted: wire.isAccountAbstracted,
            createdAt: wire.createdAt, ejectedAt: wire.ejectedAt,
            custodian: Custodian(id: wire.custodian?.id ?? "", name: wire.custodian?.name ?? ""),
            environment: wire.environment.map { Environment(id: $0.id ?? "", name: $0.name ?? "") },
            metadata: Metadata(
                namespaces: Namespaces(
                    eip155: item(.eip155), solana: item(.solana), bip122: item(.bip122), stellar: item(.stellar), tron: item(.tron))),
            wallets: (wire.wallets ?? []).map {
                Wallet(
                    id: $0.id ?? "", curve: $0.curve ?? "", publicKey: $0.publicKey ?? "", createdAt: $0.createdAt ?? "",
                    backupSharePairs: pairs($0.backupSharePairs), signingSharePairs: pairs($0.signingSharePairs))
            })
    }
}
