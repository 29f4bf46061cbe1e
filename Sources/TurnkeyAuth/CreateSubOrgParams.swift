// swift-format-ignore-file: TypeNamesShouldBeCapitalized, AlwaysUseLowerCamelCase

// (the SDK's and the swagger's names, kept so code written against the SDK compiles)
import FoundationEssentials

// The SDK's sub-organization parameters (`CreateSubOrgParams`) and the swagger types they carry
// (`v1WalletParams`, `v1WalletAccountParams`, `v1OauthProviderParamsV2`, …), under the SDK's names.
// `signup_v2` is built from them as the SDK's `buildSignUpBody` does.

/// What a new user's sub-organization is created with, as the SDK's `CreateSubOrgParams`: pass it to
/// `completeOAuth(…createSubOrgParams:)`, or set it for every OAuth signup in
/// `TurnkeyConfig.Auth.createSuborgParams.oauth`. Every field is optional; what is left out gets the
/// SDK's default (`sub-org-<unix time>`, `user-<unix time>`, no wallet). Passkeys and API keys are not
/// part of a Linux desktop sign-in, so `authenticators` and `apiKeys` are always sent empty.
public struct CreateSubOrgParams: Sendable, Equatable {
    /// Name of the user (default: `userEmail`, else `user-<unix time>`).
    public var userName: String?
    /// Name of the sub-organization (default: `sub-org-<unix time>`).
    public var subOrgName: String?
    /// Email of the user.
    public var userEmail: String?
    /// Tag of the user.
    public var userTag: String?
    /// Phone number of the user.
    public var userPhoneNumber: String?
    /// Verification token if email or phone number is provided.
    public var verificationToken: String?
    /// Custom wallet to create during sub-org creation time.
    public var customWallet: v1WalletParams?
    /// OAuth providers registered before the signing-in one (which is always added last).
    public var oauthProviders: [v1OauthProviderParamsV2]?

    /// Every field is optional.
    public init(
        userName: String? = nil, subOrgName: String? = nil, userEmail: String? = nil, userTag: String? = nil,
        userPhoneNumber: String? = nil, verificationToken: String? = nil, customWallet: v1WalletParams? = nil,
        oauthProviders: [v1OauthProviderParamsV2]? = nil
    ) {
        self.userName = userName
        self.subOrgName = subOrgName
        self.userEmail = userEmail
        self.userTag = userTag
        self.userPhoneNumber = userPhoneNumber
        self.verificationToken = verificationToken
        self.customWallet = customWallet
        self.oauthProviders = oauthProviders
    }

}

/// The wallet a sub-organization is created with (swagger `v1WalletParams`).
public struct v1WalletParams: Sendable, Equatable {
    /// A list of wallet Accounts. This field, if not needed, should be an empty array.
    public var accounts: [v1WalletAccountParams]
    /// Length of mnemonic to generate the Wallet seed. Defaults to 12. Accepted values: 12, 15, 18, 21, 24.
    public var mnemonicLength: Int?
    /// Human-readable name for a Wallet.
    public var walletName: String

    /// A wallet named `walletName` with these accounts (`mnemonicLength` nil: Turnkey's 12 words).
    public init(accounts: [v1WalletAccountParams], mnemonicLength: Int? = nil, walletName: String) {
        self.accounts = accounts
        self.mnemonicLength = mnemonicLength
        self.walletName = walletName
    }

    var wire: TurnkeyWire.WalletParams {
        TurnkeyWire.WalletParams(walletName: walletName, accounts: accounts.map(\.wire), mnemonicLength: mnemonicLength)
    }
}

/// How one wallet account is derived (swagger `v1WalletAccountParams`).
public struct v1WalletAccountParams: Sendable, Equatable {
    /// Address format used to generate a wallet Account.
    public var addressFormat: v1AddressFormat
    /// Cryptographic curve used to generate a wallet Account.
    public var curve: v1Curve
    /// Path used to generate a wallet Account (`m/44'/60'/0'/0/0`).
    public var path: String
    /// Path format used to generate a wallet Account.
    public var pathFormat: v1PathFormat

    /// An account derived on `curve` at `path`, its address written in `addressFormat`.
    public init(addressFormat: v1AddressFormat, curve: v1Curve, path: String, pathFormat: v1PathFormat) {
        self.addressFormat = addressFormat
        self.curve = curve
        self.path = path
        self.pathFormat = pathFormat
    }

    var wire: TurnkeyWire.WalletAccountParams {
        TurnkeyWire.WalletAccountParams(
            curve: curve.rawValue, pathFormat: pathFormat.rawValue, path: path, addressFormat: addressFormat.rawValue)
    }
}

/// Cryptographic curve of a wallet account (swagger `v1Curve`).
public enum v1Curve: String, Sendable, Codable, CaseIterable {
    /// secp256k1: Ethereum and EVM chains, Bitcoin, Tron, Cosmos.
    case curve_secp256k1 = "CURVE_SECP256K1"
    /// Ed25519: Solana, Sui, Aptos, Stellar, TON.
    case curve_ed25519 = "CURVE_ED25519"
    /// NIST P-256.
    case curve_p256 = "CURVE_P256"
}

/// Path format of a wallet account (swagger `v1PathFormat`).
public enum v1PathFormat: String, Sendable, Codable, CaseIterable {
    /// A BIP-32 derivation path (`m/44'/60'/0'/0/0`).
    case path_format_bip32 = "PATH_FORMAT_BIP32"
}

/// Address format of a wallet account (swagger `v1AddressFormat`).
public enum v1AddressFormat: String, Sendable, Codable, CaseIterable {
    /// The uncompressed public key, hex.
    case address_format_uncompressed = "ADDRESS_FORMAT_UNCOMPRESSED"
    /// The compressed public key, hex.
    case address_format_compressed = "ADDRESS_FORMAT_COMPRESSED"
    /// An Ethereum (EVM) address, `0x…`.
    case address_format_ethereum = "ADDRESS_FORMAT_ETHEREUM"
    /// A Solana address (base58).
    case address_format_solana = "ADDRESS_FORMAT_SOLANA"
    /// A Cosmos address (bech32).
    case address_format_cosmos = "ADDRESS_FORMAT_COSMOS"
    /// A Tron address.
    case address_format_tron = "ADDRESS_FORMAT_TRON"
    /// A Sui address.
    case address_format_sui = "ADDRESS_FORMAT_SUI"
    /// An Aptos address.
    case address_format_aptos = "ADDRESS_FORMAT_APTOS"
    /// A Bitcoin mainnet P2PKH (legacy, pay to public key hash) address.
    case address_format_bitcoin_mainnet_p2pkh = "ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH"
    /// A Bitcoin mainnet P2SH (pay to script hash) address.
    case address_format_bitcoin_mainnet_p2sh = "ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH"
    /// A Bitcoin mainnet P2WPKH (native SegWit) address.
    case address_format_bitcoin_mainnet_p2wpkh = "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH"
    /// A Bitcoin mainnet P2WSH (native SegWit script hash) address.
    case address_format_bitcoin_mainnet_p2wsh = "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH"
    /// A Bitcoin mainnet P2TR (Taproot) address.
    case address_format_bitcoin_mainnet_p2tr = "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR"
    /// A Bitcoin testnet P2PKH (legacy, pay to public key hash) address.
    case address_format_bitcoin_testnet_p2pkh = "ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH"
    /// A Bitcoin testnet P2SH (pay to script hash) address.
    case address_format_bitcoin_testnet_p2sh = "ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH"
    /// A Bitcoin testnet P2WPKH (native SegWit) address.
    case address_format_bitcoin_testnet_p2wpkh = "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH"
    /// A Bitcoin testnet P2WSH (native SegWit script hash) address.
    case address_format_bitcoin_testnet_p2wsh = "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH"
    /// A Bitcoin testnet P2TR (Taproot) address.
    case address_format_bitcoin_testnet_p2tr = "ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR"
    /// A Bitcoin signet P2PKH (legacy, pay to public key hash) address.
    case address_format_bitcoin_signet_p2pkh = "ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH"
    /// A Bitcoin signet P2SH (pay to script hash) address.
    case address_format_bitcoin_signet_p2sh = "ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH"
    /// A Bitcoin signet P2WPKH (native SegWit) address.
    case address_format_bitcoin_signet_p2wpkh = "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH"
    /// A Bitcoin signet P2WSH (native SegWit script hash) address.
    case address_format_bitcoin_signet_p2wsh = "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH"
    /// A Bitcoin signet P2TR (Taproot) address.
    case address_format_bitcoin_signet_p2tr = "ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR"
    /// A Bitcoin regtest P2PKH (legacy, pay to public key hash) address.
    case address_format_bitcoin_regtest_p2pkh = "ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH"
    /// A Bitcoin regtest P2SH (pay to script hash) address.
    case address_format_bitcoin_regtest_p2sh = "ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH"
    /// A Bitcoin regtest P2WPKH (native SegWit) address.
    case address_format_bitcoin_regtest_p2wpkh = "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH"
    /// A Bitcoin regtest P2WSH (native SegWit script hash) address.
    case address_format_bitcoin_regtest_p2wsh = "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH"
    /// A Bitcoin regtest P2TR (Taproot) address.
    case address_format_bitcoin_regtest_p2tr = "ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR"
    /// A Sei address.
    case address_format_sei = "ADDRESS_FORMAT_SEI"
    /// A Stellar (XLM) address.
    case address_format_xlm = "ADDRESS_FORMAT_XLM"
    /// A Dogecoin mainnet address.
    case address_format_doge_mainnet = "ADDRESS_FORMAT_DOGE_MAINNET"
    /// A Dogecoin testnet address.
    case address_format_doge_testnet = "ADDRESS_FORMAT_DOGE_TESTNET"
    /// A TON address of a v3r2 wallet contract.
    case address_format_ton_v3r2 = "ADDRESS_FORMAT_TON_V3R2"
    /// A TON address of a v4r2 wallet contract.
    case address_format_ton_v4r2 = "ADDRESS_FORMAT_TON_V4R2"
    /// A TON address of a v5r1 wallet contract.
    case address_format_ton_v5r1 = "ADDRESS_FORMAT_TON_V5R1"
    /// An XRP Ledger address.
    case address_format_xrp = "ADDRESS_FORMAT_XRP"
}

/// One entry of `signup_v2.oauthProviders` (swagger `v1OauthProviderParamsV2`): an identity proved by
/// an OIDC token, or registered by its claims (a secondary client ID of the same user).
public struct v1OauthProviderParamsV2: Sendable, Equatable {
    /// Human-readable name to identify a Provider.
    public var providerName: String
    /// The token, or the claims.
    public var oneOf: OneOf

    /// How the identity is given.
    public enum OneOf: Sendable, Equatable {
        /// OIDC claims (iss, sub, aud) to uniquely identify the user.
        case oidcClaims(v1OidcClaims)
        /// An OIDC token.
        case oidcToken(String)
    }

    /// An identity named `providerName`, given as a token or by its claims.
    public init(providerName: String, oneOf: OneOf) {
        self.providerName = providerName
        self.oneOf = oneOf
    }

    var wire: TurnkeyWire.OAuthProviderParams {
        switch oneOf {
        case .oidcClaims(let claims):
            TurnkeyWire.OAuthProviderParams(
                providerName: providerName, oidcClaims: .init(aud: claims.aud, iss: claims.iss, sub: claims.sub))
        case .oidcToken(let token): TurnkeyWire.OAuthProviderParams(providerName: providerName, oidcToken: token)
        }
    }
}

/// The claims that identify an OIDC user to Turnkey: issuer, subject and audience (swagger `v1OidcClaims`).
public struct v1OidcClaims: Sendable, Equatable {
    /// The audience from the OIDC token (aud claim).
    public var aud: String
    /// The issuer identifier from the OIDC token (iss claim).
    public var iss: String
    /// The subject identifier from the OIDC token (sub claim).
    public var sub: String

    /// Claims with this audience, issuer and subject.
    public init(aud: String, iss: String, sub: String) {
        self.aud = aud
        self.iss = iss
        self.sub = sub
    }
}

/// The SDK's short names for the swagger types.
public typealias Curve = v1Curve
/// The SDK's name for `v1PathFormat`.
public typealias PathFormat = v1PathFormat
/// The SDK's name for `v1AddressFormat`.
public typealias AddressFormat = v1AddressFormat
/// The SDK's name for `v1WalletAccountParams`.
public typealias WalletAccountParams = v1WalletAccountParams
