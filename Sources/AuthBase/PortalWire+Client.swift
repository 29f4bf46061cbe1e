import FoundationEssentials

extension PortalWire {
    /// `GET /api/v3/clients/me`: the signed-in client as Portal's API returns it (PortalSwift's
    /// `ClientResponse`): its custodian (the app), environment, the addresses of its wallets by
    /// namespace, and the wallets. A client without a wallet has no namespaces and `wallets: []`.
    public struct Client: Codable, Sendable {
        @Lenient public private(set) var id: String?
        @Lenient public private(set) var endUserId: String?
        @Lenient public private(set) var isAccountAbstracted: Bool?
        @Lenient public private(set) var createdAt: String?
        @Lenient public private(set) var ejectedAt: String?
        @Lenient public private(set) var custodian: Named?
        @Lenient public private(set) var environment: Named?
        @Lenient public private(set) var metadata: Metadata?
        @Lenient public private(set) var wallets: [Wallet]?

        public init(
            id: String?, endUserId: String?, isAccountAbstracted: Bool?, createdAt: String? = nil, ejectedAt: String? = nil,
            custodian: Named? = nil, environment: Named? = nil, metadata: Metadata? = nil, wallets: [Wallet]? = nil
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
    }

    /// `{id, name}`: the custodian (the app's organisation in Portal) or the environment.
    public struct Named: Codable, Sendable {
        @Lenient public private(set) var id: String?
        @Lenient public private(set) var name: String?

        public init(id: String?, name: String?) {
            self.id = id
            self.name = name
        }
    }

    /// `metadata: {namespaces: {eip155: {address, curve}, solana: …}}`.
    public struct Metadata: Codable, Sendable {
        @Lenient public private(set) var namespaces: [String: NamespaceAddress]?

        public init(namespaces: [String: NamespaceAddress]?) {
            self.namespaces = namespaces
        }
    }

    /// One namespace's address and the curve of the key behind it (`SECP256K1`, `ED25519`).
    public struct NamespaceAddress: Codable, Sendable {
        @Lenient public private(set) var address: String?
        @Lenient public private(set) var curve: String?

        public init(address: String?, curve: String?) {
            self.address = address
            self.curve = curve
        }
    }

    /// One of the client's wallets: one per curve.
    public struct Wallet: Codable, Sendable {
        @Lenient public private(set) var id: String?
        @Lenient public private(set) var curve: String?
        @Lenient public private(set) var publicKey: String?
        @Lenient public private(set) var createdAt: String?
        @Lenient public private(set) var backupSharePairs: [SharePair]?
        @Lenient public private(set) var signingSharePairs: [SharePair]?

        public init(
            id: String?, curve: String?, publicKey: String?, createdAt: String?,
            backupSharePairs: [SharePair]? = [], signingSharePairs: [SharePair]? = []
        ) {
            self.id = id
            self.curve = curve
            self.publicKey = publicKey
            self.createdAt = createdAt
            self.backupSharePairs = backupSharePairs
            self.signingSharePairs = signingSharePairs
        }
    }

    /// A share pair of a wallet (`backupMethod` only on backup pairs).
    public struct SharePair: Codable, Sendable {
        @Lenient public private(set) var id: String?
        @Lenient public private(set) var status: String?
        @Lenient public private(set) var createdAt: String?
        @Lenient public private(set) var backupMethod: String?

        public init(id: String?, status: String?, createdAt: String?, backupMethod: String? = nil) {
            self.id = id
            self.status = status
            self.createdAt = createdAt
            self.backupMethod = backupMethod
        }
    }
}
