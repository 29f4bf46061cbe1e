/// Who is signed in, to what, and with which wallets: what the "Signed in" page leads with, the same
/// for every backend. Each field is what the backend knows; nil (or empty) when it does not say.
public struct AccountProfile: Sendable, Equatable {
    /// The app the person signed in to (Portal: the custodian's name).
    public var appName: String?
    /// Where that app runs (Portal: the environment's name, "Testnet", "Production").
    public var environment: String?
    /// The person, by name or email (Turnkey: `get_user`).
    public var person: String?
    /// The organization the account belongs to (Turnkey's sub-organization).
    public var organization: String?
    /// The provider the account signs in with.
    public var provider: SignInProvider?
    /// Every wallet address, in the order the backend lists them; empty: no wallet yet; nil: the
    /// backend does not say (the page then shows no wallet section rather than a wrong "none").
    public var addresses: [WalletAddress]?

    public init(
        appName: String? = nil, environment: String? = nil, person: String? = nil, organization: String? = nil,
        provider: SignInProvider? = nil, addresses: [WalletAddress]? = nil
    ) {
        self.appName = appName
        self.environment = environment
        self.person = person
        self.organization = organization
        self.provider = provider
        self.addresses = addresses
    }
}

/// One wallet address and the chain it lives on.
public struct WalletAddress: Sendable, Equatable {
    public enum Chain: Sendable, Equatable {
        /// Ethereum and the chains that share its addresses (eip155).
        case evm
        case solana
        /// A chain the window has no name for: the backend's own word for it.
        case other(String)
    }

    public let chain: Chain
    public let address: String

    public init(chain: Chain, address: String) {
        self.chain = chain
        self.address = address
    }

    /// The address shortened in the middle ("0x1234…cdef"), whole when it is short already.
    public var shortened: String {
        let characters = Array(address)
        guard characters.count > 13 else { return address }
        return String(characters.prefix(6)) + "…" + String(characters.suffix(4))
    }
}

/// The profile of the account shown, as far as it was fetched.
public enum ProfileLookup: Sendable, Equatable {
    case loading
    case loaded(AccountProfile)
    /// The lookup failed (the session stays): the words, and Try Again.
    case failed(message: String)
}
