import FoundationEssentials

/// Turnkey's Auth Proxy and API on the wire (docs/TURNKEY.md), shared by the
/// `TurnkeyAuth` core and the emulator: paths, headers, the JSON bodies. Optional fields are left out
/// of the JSON when nil; response fields are `@Lenient` (a field of the wrong type counts as missing).
public enum TurnkeyWire {
    /// Auth Proxy paths, under the Auth Proxy URL (`https://authproxy.turnkey.com`; the emulator's
    /// `/turnkey/auth-proxy`). Every endpoint is a POST.
    public enum AuthProxyPath {
        public static let walletKitConfig = "/v1/wallet_kit_config"
        public static let account = "/v1/account"
        public static let oauth2Authenticate = "/v1/oauth2_authenticate"
        public static let oauthLogin = "/v1/oauth_login"
        public static let signup = "/v1/signup_v2"
    }

    /// API paths, under the API URL (`https://api.turnkey.com`; the emulator's `/turnkey/api`).
    /// Requests are stamped (`X-Stamp`).
    public enum APIPath {
        public static let whoami = "/public/v1/query/whoami"
        public static let getUser = "/public/v1/query/get_user"
        public static let stampLogin = "/public/v1/submit/stamp_login"
        public static let getActivity = "/public/v1/query/get_activity"
        public static let listWallets = "/public/v1/query/list_wallets"
        public static let listWalletAccounts = "/public/v1/query/list_wallet_accounts"
    }

    public enum Header {
        public static let authProxyConfigId = "X-Auth-Proxy-Config-ID"
        public static let stamp = "X-Stamp"
        public static let clientVersion = "X-Client-Version"
    }

    /// The emulator's paths for the hosted pages and its base paths (DESIGN.md, Turnkey section).
    public enum EmulatorPath {
        public static let authProxyBase = "/turnkey/auth-proxy"
        public static let apiBase = "/turnkey/api"
        public static let oauthOrigin = "/turnkey/oauth-origin"
        public static let oauthRedirect = "/turnkey/oauth-redirect"
        public static let admin = "/emulator/v1/turnkey"
        /// The generic OIDC issuer ("any OIDC provider"): discovery under it, `/authorize`, `/token`, `/jwks`.
        public static let oidcIssuer = "/idp/oidc"
    }

    public static let stampScheme = "SIGNATURE_SCHEME_TK_API_P256"
    public static let stampLoginActivity = "ACTIVITY_TYPE_STAMP_LOGIN"
    public static let oidcTokenFilter = "OIDC_TOKEN"

    /// A provider name `oauth2_authenticate` takes (`OAUTH2_PROVIDER_DISCORD`): the `authProxyName`
    /// of a PKCE provider's row in the provider table; any other name is nil, and does not decode.
    public struct OAuth2Provider: RawRepresentable, Codable, Sendable, Hashable {
        public let rawValue: String

        public init?(rawValue: String) {
            guard let provider = SignInProvider.allCases.first(where: { $0.authProxyProvider?.rawValue == rawValue }) else {
                return nil
            }
            self = provider.authProxyProvider!
        }

        /// The table's own names (`SignInProvider.authProxyProvider`).
        init(uncheckedName: String) { rawValue = uncheckedName }
    }

    /// `{"code":…,"message":…,"details":[…]}`, every Turnkey error body (google.rpc.Status).
    public struct ErrorBody: Codable, Sendable {
        @Lenient public private(set) var code: Int?
        @Lenient public private(set) var message: String?
        @Lenient public private(set) var details: [JSONValue]?

        public init(code: Int, message: String, details: [JSONValue] = []) {
            self.code = code
            self.message = message
            self.details = details
        }
    }

    /// `{}`, the request of `wallet_kit_config`.
    public struct Empty: Codable, Sendable {
        public init() {}
    }

    // MARK: Auth Proxy

    public struct WalletKitConfig: Codable, Sendable {
        @Lenient public private(set) var enabledProviders: [String]?
        /// Seconds, as a string (int64 in proto JSON).
        @Lenient public private(set) var sessionExpirationSeconds: String?
        @Lenient public private(set) var organizationId: String?
        /// Provider name (`google`, `apple`, `x`, `discord`) to client ID.
        @Lenient public private(set) var oauthClientIds: [String: String]?
        @Lenient public private(set) var oauthRedirectUrl: String?
        @Lenient public private(set) var otpAlphanumeric: Bool?
        @Lenient public private(set) var otpLength: String?

        public init(
            enabledProviders: [String], sessionExpirationSeconds: String, organizationId: String,
            oauthClientIds: [String: String]? = nil, oauthRedirectUrl: String? = nil,
            otpAlphanumeric: Bool? = nil, otpLength: String? = nil
        ) {
            self.enabledProviders = enabledProviders
            self.sessionExpirationSeconds = sessionExpirationSeconds
            self.organizationId = organizationId
            self.oauthClientIds = oauthClientIds
            self.oauthRedirectUrl = oauthRedirectUrl
            self.otpAlphanumeric = otpAlphanumeric
            self.otpLength = otpLength
        }
    }

    public struct AccountRequest: Codable, Sendable {
        public let filterType: String
        public let filterValue: String
        public init(oidcToken: String) {
            filterType = TurnkeyWire.oidcTokenFilter
            filterValue = oidcToken
        }
    }

    public struct AccountResponse: Codable, Sendable {
        @Lenient public private(set) var organizationId: String?
        public init(organizationId: String?) { self.organizationId = organizationId }
    }

    public struct OAuth2AuthenticateRequest: Codable, Sendable {
        public let authCode: String
        public let clientId: String
        public let codeVerifier: String
        /// Optional in Turnkey's API; the token Turnkey mints carries it. This product always sends it.
        public let nonce: String?
        public let provider: OAuth2Provider
        public let redirectUri: String

        public init(
            authCode: String, clientId: String, codeVerifier: String, nonce: String?,
            provider: OAuth2Provider, redirectUri: String
        ) {
            self.authCode = authCode
            self.clientId = clientId
            self.codeVerifier = codeVerifier
            self.nonce = nonce
            self.provider = provider
            self.redirectUri = redirectUri
        }
    }

    public struct OAuth2AuthenticateResponse: Codable, Sendable {
        @Lenient public private(set) var oidcToken: String?
        public init(oidcToken: String) { self.oidcToken = oidcToken }
    }

    public struct OAuthLoginRequest: Codable, Sendable {
        public let invalidateExisting: Bool
        public let oidcToken: String
        public let organizationId: String?
        public let publicKey: String

        public init(invalidateExisting: Bool, oidcToken: String, organizationId: String?, publicKey: String) {
            self.invalidateExisting = invalidateExisting
            self.oidcToken = oidcToken
            self.organizationId = organizationId
            self.publicKey = publicKey
        }
    }

    public struct OAuthLoginResponse: Codable, Sendable {
        /// The session JWT.
        @Lenient public private(set) var session: String?
        public init(session: String) { self.session = session }
    }

    /// One entry of `signup_v2.oauthProviders`: the primary provider with its token, or a
    /// secondary client ID as claims (`aud` = that client ID, `iss` and `sub` from the primary token).
    public struct OAuthProviderParams: Codable, Sendable, Equatable {
        public let providerName: String
        public let oidcToken: String?
        public let oidcClaims: OIDCClaims?

        public init(providerName: String, oidcToken: String) {
            self.providerName = providerName
            self.oidcToken = oidcToken
            self.oidcClaims = nil
        }

        public init(providerName: String, oidcClaims: OIDCClaims) {
            self.providerName = providerName
            self.oidcToken = nil
            self.oidcClaims = oidcClaims
        }
    }

    public struct OIDCClaims: Codable, Sendable, Equatable {
        public let aud: String
        public let iss: String
        public let sub: String
        public init(aud: String, iss: String, sub: String) {
            self.aud = aud
            self.iss = iss
            self.sub = sub
        }
    }

    /// `signup_v2`'s body as Turnkey's swagger has it: the three arrays always present (empty when
    /// unused), every other field left out when nil.
    public struct SignupRequest: Codable, Sendable, Equatable {
        public let apiKeys: [JSONValue]
        public let authenticators: [JSONValue]
        public let oauthProviders: [OAuthProviderParams]
        public let organizationName: String?
        public let userName: String?
        public let userEmail: String?
        public let userPhoneNumber: String?
        public let userTag: String?
        public let verificationToken: String?
        /// The wallet the sub-organization is created with.
        public let wallet: WalletParams?

        public init(
            oauthProviders: [OAuthProviderParams], organizationName: String?, userName: String?, userEmail: String? = nil,
            userPhoneNumber: String? = nil, userTag: String? = nil, verificationToken: String? = nil,
            wallet: WalletParams? = nil
        ) {
            apiKeys = []
            authenticators = []
            self.oauthProviders = oauthProviders
            self.organizationName = organizationName
            self.userName = userName
            self.userEmail = userEmail
            self.userPhoneNumber = userPhoneNumber
            self.userTag = userTag
            self.verificationToken = verificationToken
            self.wallet = wallet
        }

        /// The names the body may have; Turnkey refuses any other.
        public static let fieldNames: Set<String> = [
            "apiKeys", "authenticators", "clientSignature", "oauthProviders", "organizationName", "userName", "userEmail",
            "userPhoneNumber", "userTag", "verificationToken", "wallet"
        ]
    }

    /// v1WalletParams: a wallet's name, its accounts (an empty array when none) and the mnemonic length.
    public struct WalletParams: Codable, Sendable, Equatable {
        public let walletName: String
        public let accounts: [WalletAccountParams]
        /// 12 (Turnkey's default when left out), 15, 18, 21 or 24.
        public let mnemonicLength: Int?

        public init(walletName: String, accounts: [WalletAccountParams], mnemonicLength: Int? = nil) {
            self.walletName = walletName
            self.accounts = accounts
            self.mnemonicLength = mnemonicLength
        }

        public static let fieldNames: Set<String> = ["walletName", "accounts", "mnemonicLength"]
    }

    /// v1WalletAccountParams: how one account is derived (`CURVE_SECP256K1`, `PATH_FORMAT_BIP32`,
    /// `m/44'/60'/0'/0/0`, `ADDRESS_FORMAT_ETHEREUM`).
    public struct WalletAccountParams: Codable, Sendable, Equatable {
        public let curve: String
        public let pathFormat: String
        public let path: String
        public let addressFormat: String

        public init(curve: String, pathFormat: String, path: String, addressFormat: String) {
            self.curve = curve
            self.pathFormat = pathFormat
            self.path = path
            self.addressFormat = addressFormat
        }

        public static let fieldNames: Set<String> = ["curve", "pathFormat", "path", "addressFormat"]
    }

    public struct SignupResponse: Codable, Sendable {
        @Lenient public private(set) var organizationId: String?
        @Lenient public private(set) var userId: String?
        /// `{"walletId":…,"addresses":[…]}` when the request asked for a wallet.
        @Lenient public private(set) var wallet: WalletResult?
        public init(organizationId: String, userId: String, wallet: WalletResult? = nil) {
            self.organizationId = organizationId
            self.userId = userId
            self.wallet = wallet
        }
    }

    /// v1WalletResult: the wallet signup made, with its accounts' addresses in request order.
    public struct WalletResult: Codable, Sendable, Equatable {
        public let walletId: String
        public let addresses: [String]
        public init(walletId: String, addresses: [String]) {
            self.walletId = walletId
            self.addresses = addresses
        }
    }

    // MARK: API (stamped)

    /// `X-Stamp` before base64url: the compressed public key (hex), the scheme, the DER signature (hex).
    public struct Stamp: Codable, Sendable, Equatable {
        public let publicKey: String
        public let scheme: String
        public let signature: String

        public init(publicKey: String, signature: String) {
            self.publicKey = publicKey
            scheme = TurnkeyWire.stampScheme
            self.signature = signature
        }
    }

    public struct WhoamiRequest: Codable, Sendable {
        public let organizationId: String
        public init(organizationId: String) { self.organizationId = organizationId }
    }

    public struct WhoamiResponse: Codable, Sendable {
        @Lenient public private(set) var organizationId: String?
        @Lenient public private(set) var organizationName: String?
        @Lenient public private(set) var userId: String?
        @Lenient public private(set) var username: String?

        public init(organizationId: String, organizationName: String, userId: String, username: String) {
            self.organizationId = organizationId
            self.organizationName = organizationName
            self.userId = userId
            self.username = username
        }
    }

    public struct GetUserRequest: Codable, Sendable {
        public let organizationId: String
        public let userId: String
        public init(organizationId: String, userId: String) {
            self.organizationId = organizationId
            self.userId = userId
        }
    }

    /// `{"user": {...}}` of `get_user`; the fields are read as JSON (the core shows a few).
    public struct GetUserResponse: Codable, Sendable {
        public let user: JSONValue?
        public init(user: JSONValue) { self.user = user }
    }

    public struct StampLoginRequest: Codable, Sendable {
        public struct Parameters: Codable, Sendable {
            /// Seconds, as a string.
            public let expirationSeconds: String
            public let invalidateExisting: Bool
            /// The new session key's compressed public key (hex).
            public let publicKey: String

            public init(expirationSeconds: String, invalidateExisting: Bool, publicKey: String) {
                self.expirationSeconds = expirationSeconds
                self.invalidateExisting = invalidateExisting
                self.publicKey = publicKey
            }
        }

        public let type: String
        /// Milliseconds since 1970, as a string.
        public let timestampMs: String
        public let organizationId: String
        public let parameters: Parameters

        public init(timestampMs: String, organizationId: String, parameters: Parameters) {
            type = TurnkeyWire.stampLoginActivity
            self.timestampMs = timestampMs
            self.organizationId = organizationId
            self.parameters = parameters
        }
    }

    public struct GetActivityRequest: Codable, Sendable {
        public let organizationId: String
        public let activityId: String
        public init(organizationId: String, activityId: String) {
            self.organizationId = organizationId
            self.activityId = activityId
        }
    }

    /// `{"activity": v1Activity}` of `stamp_login` and `get_activity`. The session of a finished
    /// stamp login is `activity.result.stampLoginResult.session`.
    public struct ActivityResponse: Codable, Sendable {
        public let activity: JSONValue?
        public init(activity: JSONValue) { self.activity = activity }

        public var status: String? { activity?["status"]?.stringValue }
        public var activityId: String? { activity?["id"]?.stringValue }
        public var stampLoginSession: String? { activity?["result"]?["stampLoginResult"]?["session"]?.stringValue }
    }

    /// `list_wallets` (and `list_wallet_accounts` without a wallet ID): the organization's.
    public struct ListWalletsRequest: Codable, Sendable {
        public let organizationId: String
        public init(organizationId: String) { self.organizationId = organizationId }
    }

    /// `{"wallets":[v1Wallet]}`; each wallet is read as JSON (the core reads the fields it shows).
    public struct ListWalletsResponse: Codable, Sendable {
        public let wallets: [JSONValue]?
        public init(wallets: [JSONValue]) { self.wallets = wallets }
    }

    public struct ListWalletAccountsRequest: Codable, Sendable {
        public let organizationId: String
        public let walletId: String?
        public init(organizationId: String, walletId: String?) {
            self.organizationId = organizationId
            self.walletId = walletId
        }
    }

    /// `{"accounts":[v1WalletAccount]}`.
    public struct ListWalletAccountsResponse: Codable, Sendable {
        public let accounts: [JSONValue]?
        public init(accounts: [JSONValue]) { self.accounts = accounts }
    }
}
