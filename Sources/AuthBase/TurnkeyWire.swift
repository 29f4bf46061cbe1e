import FoundationEssentials

/// Turnkey's Auth Proxy and API on the wire (docs/TURNKEY.md), shared by the
/// `TurnkeyAuth` core and the emulator: paths, headers, the JSON bodies. Optional fields are left out
/// of the JSON when nil; response fields are `@Lenient` (a field of the wrong type counts as missing).
package enum TurnkeyWire {
    /// Auth Proxy paths, under the Auth Proxy URL (`https://authproxy.turnkey.com`; the emulator's
    /// `/turnkey/auth-proxy`). Every endpoint is a POST.
    package enum AuthProxyPath {
        package static let walletKitConfig = "/v1/wallet_kit_config"
        package static let account = "/v1/account"
        package static let oauth2Authenticate = "/v1/oauth2_authenticate"
        package static let oauthLogin = "/v1/oauth_login"
        package static let signup = "/v1/signup_v2"
    }

    /// API paths, under the API URL (`https://api.turnkey.com`; the emulator's `/turnkey/api`).
    /// Requests are stamped (`X-Stamp`).
    package enum APIPath {
        package static let whoami = "/public/v1/query/whoami"
        package static let getUser = "/public/v1/query/get_user"
        package static let stampLogin = "/public/v1/submit/stamp_login"
        package static let getActivity = "/public/v1/query/get_activity"
        package static let listWallets = "/public/v1/query/list_wallets"
        package static let listWalletAccounts = "/public/v1/query/list_wallet_accounts"
    }

    package enum Header {
        package static let authProxyConfigId = "X-Auth-Proxy-Config-ID"
        package static let stamp = "X-Stamp"
        package static let clientVersion = "X-Client-Version"
    }

    /// The emulator's paths for the hosted pages and its base paths (DESIGN.md, Turnkey section).
    package enum EmulatorPath {
        package static let authProxyBase = "/turnkey/auth-proxy"
        package static let apiBase = "/turnkey/api"
        package static let oauthOrigin = "/turnkey/oauth-origin"
        package static let oauthRedirect = "/turnkey/oauth-redirect"
        package static let admin = "/emulator/v1/turnkey"
        /// The generic OIDC issuer ("any OIDC provider"): discovery under it, `/authorize`, `/token`, `/jwks`.
        package static let oidcIssuer = "/idp/oidc"
    }

    package static let stampScheme = "SIGNATURE_SCHEME_TK_API_P256"
    package static let stampLoginActivity = "ACTIVITY_TYPE_STAMP_LOGIN"
    package static let oidcTokenFilter = "OIDC_TOKEN"

    /// A provider name `oauth2_authenticate` takes (`OAUTH2_PROVIDER_DISCORD`): the `authProxyName`
    /// of a PKCE provider's row in the provider table; any other name is nil, and does not decode.
    package struct OAuth2Provider: RawRepresentable, Codable, Sendable, Hashable {
        package let rawValue: String

        package init?(rawValue: String) {
            guard let provider = SignInProvider.allCases.first(where: { $0.authProxyProvider?.rawValue == rawValue }) else {
                return nil
            }
            self = provider.authProxyProvider!
        }

        /// The table's own names (`SignInProvider.authProxyProvider`).
        init(uncheckedName: String) { rawValue = uncheckedName }
    }

    /// `{"code":…,"message":…,"details":[…]}`, every Turnkey error body (google.rpc.Status).
    package struct ErrorBody: Codable, Sendable {
        @Lenient package private(set) var code: Int?
        @Lenient package private(set) var message: String?
        @Lenient package private(set) var details: [JSONValue]?

        package init(code: Int, message: String, details: [JSONValue] = []) {
            self.code = code
            self.message = message
            self.details = details
        }
    }

    /// `{}`, the request of `wallet_kit_config`.
    package struct Empty: Codable, Sendable {
        package init() {}
    }

    // MARK: Auth Proxy

    package struct WalletKitConfig: Codable, Sendable {
        @Lenient package private(set) var enabledProviders: [String]?
        /// Seconds, as a string (int64 in proto JSON).
        @Lenient package private(set) var sessionExpirationSeconds: String?
        @Lenient package private(set) var organizationId: String?
        /// Provider name (`google`, `apple`, `x`, `discord`) to client ID.
        @Lenient package private(set) var oauthClientIds: [String: String]?
        @Lenient package private(set) var oauthRedirectUrl: String?
        @Lenient package private(set) var otpAlphanumeric: Bool?
        @Lenient package private(set) var otpLength: String?

        package init(
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

    package struct AccountRequest: Codable, Sendable {
        package let filterType: String
        package let filterValue: String
        package init(oidcToken: String) {
            filterType = TurnkeyWire.oidcTokenFilter
            filterValue = oidcToken
        }
    }

    package struct AccountResponse: Codable, Sendable {
        @Lenient package private(set) var organizationId: String?
        package init(organizationId: String?) { self.organizationId = organizationId }
    }

    package struct OAuth2AuthenticateRequest: Codable, Sendable {
        package let authCode: String
        package let clientId: String
        package let codeVerifier: String
        /// Optional in Turnkey's API; the token Turnkey mints carries it. This product always sends it.
        package let nonce: String?
        package let provider: OAuth2Provider
        package let redirectUri: String

        package init(
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

    package struct OAuth2AuthenticateResponse: Codable, Sendable {
        @Lenient package private(set) var oidcToken: String?
        package init(oidcToken: String) { self.oidcToken = oidcToken }
    }

    package struct OAuthLoginRequest: Codable, Sendable {
        package let invalidateExisting: Bool
        package let oidcToken: String
        package let organizationId: String?
        package let publicKey: String

        package init(invalidateExisting: Bool, oidcToken: String, organizationId: String?, publicKey: String) {
            self.invalidateExisting = invalidateExisting
            self.oidcToken = oidcToken
            self.organizationId = organizationId
            self.publicKey = publicKey
        }
    }

    package struct OAuthLoginResponse: Codable, Sendable {
        /// The session JWT.
        @Lenient package private(set) var session: String?
        package init(session: String) { self.session = session }
    }

    /// One entry of `signup_v2.oauthProviders`: the primary provider with its token, or a
    /// secondary client ID as claims (`aud` = that client ID, `iss` and `sub` from the primary token).
    package struct OAuthProviderParams: Codable, Sendable, Equatable {
        package let providerName: String
        package let oidcToken: String?
        package let oidcClaims: OIDCClaims?

        package init(providerName: String, oidcToken: String) {
            self.providerName = providerName
            self.oidcToken = oidcToken
            self.oidcClaims = nil
        }

        package init(providerName: String, oidcClaims: OIDCClaims) {
            self.providerName = providerName
            self.oidcToken = nil
            self.oidcClaims = oidcClaims
        }
    }

    package struct OIDCClaims: Codable, Sendable, Equatable {
        package let aud: String
        package let iss: String
        package let sub: String
        package init(aud: String, iss: String, sub: String) {
            self.aud = aud
            self.iss = iss
            self.sub = sub
        }
    }

    /// `signup_v2`'s body as Turnkey's swagger has it: the three arrays always present (empty when
    /// unused), every other field left out when nil.
    package struct SignupRequest: Codable, Sendable, Equatable {
        package let apiKeys: [JSONValue]
        package let authenticators: [JSONValue]
        package let oauthProviders: [OAuthProviderParams]
        package let organizationName: String?
        package let userName: String?
        package let userEmail: String?
        package let userPhoneNumber: String?
        package let userTag: String?
        package let verificationToken: String?
        /// The wallet the sub-organization is created with.
        package let wallet: WalletParams?

        package init(
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
        package static let fieldNames: Set<String> = [
            "apiKeys", "authenticators", "clientSignature", "oauthProviders", "organizationName", "userName", "userEmail",
            "userPhoneNumber", "userTag", "verificationToken", "wallet"
        ]
    }

    /// v1WalletParams: a wallet's name, its accounts (an empty array when none) and the mnemonic length.
    package struct WalletParams: Codable, Sendable, Equatable {
        package let walletName: String
        package let accounts: [WalletAccountParams]
        /// 12 (Turnkey's default when left out), 15, 18, 21 or 24.
        package let mnemonicLength: Int?

        package init(walletName: String, accounts: [WalletAccountParams], mnemonicLength: Int? = nil) {
            self.walletName = walletName
            self.accounts = accounts
            self.mnemonicLength = mnemonicLength
        }

        package static let fieldNames: Set<String> = ["walletName", "accounts", "mnemonicLength"]
    }

    /// v1WalletAccountParams: how one account is derived (`CURVE_SECP256K1`, `PATH_FORMAT_BIP32`,
    /// `m/44'/60'/0'/0/0`, `ADDRESS_FORMAT_ETHEREUM`).
    package struct WalletAccountParams: Codable, Sendable, Equatable {
        package let curve: String
        package let pathFormat: String
        package let path: String
        package let addressFormat: String

        package init(curve: String, pathFormat: String, path: String, addressFormat: String) {
            self.curve = curve
            self.pathFormat = pathFormat
            self.path = path
            self.addressFormat = addressFormat
        }

        package static let fieldNames: Set<String> = ["curve", "pathFormat", "path", "addressFormat"]
    }

    package struct SignupResponse: Codable, Sendable {
        @Lenient package private(set) var organizationId: String?
        @Lenient package private(set) var userId: String?
        /// `{"walletId":…,"addresses":[…]}` when the request asked for a wallet.
        @Lenient package private(set) var wallet: WalletResult?
        package init(organizationId: String, userId: String, wallet: WalletResult? = nil) {
            self.organizationId = organizationId
            self.userId = userId
            self.wallet = wallet
        }
    }

    /// v1WalletResult: the wallet signup made, with its accounts' addresses in request order.
    package struct WalletResult: Codable, Sendable, Equatable {
        package let walletId: String
        package let addresses: [String]
        package init(walletId: String, addresses: [String]) {
            self.walletId = walletId
            self.addresses = addresses
        }
    }

    // MARK: API (stamped)

    /// `X-Stamp` before base64url: the compressed public key (hex), the scheme, the DER signature (hex).
    package struct Stamp: Codable, Sendable, Equatable {
        package let publicKey: String
        package let scheme: String
        package let signature: String

        package init(publicKey: String, signature: String) {
            self.publicKey = publicKey
            scheme = TurnkeyWire.stampScheme
            self.signature = signature
        }
    }

    package struct WhoamiRequest: Codable, Sendable {
        package let organizationId: String
        package init(organizationId: String) { self.organizationId = organizationId }
    }

    package struct WhoamiResponse: Codable, Sendable {
        @Lenient package private(set) var organizationId: String?
        @Lenient package private(set) var organizationName: String?
        @Lenient package private(set) var userId: String?
        @Lenient package private(set) var username: String?

        package init(organizationId: String, organizationName: String, userId: String, username: String) {
            self.organizationId = organizationId
            self.organizationName = organizationName
            self.userId = userId
            self.username = username
        }
    }

    package struct GetUserRequest: Codable, Sendable {
        package let organizationId: String
        package let userId: String
        package init(organizationId: String, userId: String) {
            self.organizationId = organizationId
            self.userId = userId
        }
    }

    /// `{"user": {...}}` of `get_user`; the fields are read as JSON (the core shows a few).
    package struct GetUserResponse: Codable, Sendable {
        package let user: JSONValue?
        package init(user: JSONValue) { self.user = user }
    }

    package struct StampLoginRequest: Codable, Sendable {
        package struct Parameters: Codable, Sendable {
            /// Seconds, as a string.
            package let expirationSeconds: String
            package let invalidateExisting: Bool
            /// The new session key's compressed public key (hex).
            package let publicKey: String

            package init(expirationSeconds: String, invalidateExisting: Bool, publicKey: String) {
                self.expirationSeconds = expirationSeconds
                self.invalidateExisting = invalidateExisting
                self.publicKey = publicKey
            }
        }

        package let type: String
        /// Milliseconds since 1970, as a string.
        package let timestampMs: String
        package let organizationId: String
        package let parameters: Parameters

        package init(timestampMs: String, organizationId: String, parameters: Parameters) {
            type = TurnkeyWire.stampLoginActivity
            self.timestampMs = timestampMs
            self.organizationId = organizationId
            self.parameters = parameters
        }
    }

    package struct GetActivityRequest: Codable, Sendable {
        package let organizationId: String
        package let activityId: String
        package init(organizationId: String, activityId: String) {
            self.organizationId = organizationId
            self.activityId = activityId
        }
    }

    /// `{"activity": v1Activity}` of `stamp_login` and `get_activity`. The session of a finished
    /// stamp login is `activity.result.stampLoginResult.session`.
    package struct ActivityResponse: Codable, Sendable {
        package let activity: JSONValue?
        package init(activity: JSONValue) { self.activity = activity }

        package var status: String? { activity?["status"]?.stringValue }
        package var activityId: String? { activity?["id"]?.stringValue }
        package var stampLoginSession: String? { activity?["result"]?["stampLoginResult"]?["session"]?.stringValue }
    }

    /// `list_wallets` (and `list_wallet_accounts` without a wallet ID): the organization's.
    package struct ListWalletsRequest: Codable, Sendable {
        package let organizationId: String
        package init(organizationId: String) { self.organizationId = organizationId }
    }

    /// `{"wallets":[v1Wallet]}`; each wallet is read as JSON (the core reads the fields it shows).
    package struct ListWalletsResponse: Codable, Sendable {
        package let wallets: [JSONValue]?
        package init(wallets: [JSONValue]) { self.wallets = wallets }
    }

    package struct ListWalletAccountsRequest: Codable, Sendable {
        package let organizationId: String
        package let walletId: String?
        package init(organizationId: String, walletId: String?) {
            self.organizationId = organizationId
            self.walletId = walletId
        }
    }

    /// `{"accounts":[v1WalletAccount]}`.
    package struct ListWalletAccountsResponse: Codable, Sendable {
        package let accounts: [JSONValue]?
        package init(accounts: [JSONValue]) { self.accounts = accounts }
    }
}
