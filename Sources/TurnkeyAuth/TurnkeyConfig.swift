import FoundationEssentials

// `TurnkeyConfig` as Turnkey's Swift SDK spells it, so the seed page's configuration compiles as
// written; `configuration(…)` maps it onto `TurnkeyConfiguration`, which the core runs on.

/// Google's primary client ID: the web client the hosted origin page signs in with.
public struct GoogleOAuthPrimaryClientId: Sendable, Equatable {
    /// The web client ID Google signs in with (the origin page uses it).
    public var webClientId: String?
    /// A Google primary client ID; nil leaves it to `wallet_kit_config`.
    public init(webClientId: String? = nil) { self.webClientId = webClientId }
}

/// Google: its primary client ID, secondary client IDs registered as further audiences at signup,
/// and a redirect URI of its own (used as given; default: the redirect page with `?scheme=`).
public struct GoogleOAuthProviderParams: Sendable, Equatable {
    /// The client ID the sign-in uses (nil: `wallet_kit_config`'s).
    public var primaryClientId: GoogleOAuthPrimaryClientId?
    /// Further client IDs of the same app family, registered as audiences of a new user at signup.
    public var secondaryClientIds: [String]?
    /// The provider's own redirect URI, used as given (it must match the provider's dashboard).
    public var redirectUri: String?
    /// Every field is optional.
    public init(primaryClientId: GoogleOAuthPrimaryClientId? = nil, secondaryClientIds: [String]? = nil, redirectUri: String? = nil) {
        self.primaryClientId = primaryClientId
        self.secondaryClientIds = secondaryClientIds
        self.redirectUri = redirectUri
    }
}

/// Apple's primary client ID: the Services ID the web flow signs in with (Linux has only the web flow).
public struct AppleOAuthPrimaryClientId: Sendable, Equatable {
    /// The Apple Services ID the web flow signs in with.
    public var serviceId: String?
    /// An Apple primary client ID; nil leaves it to `wallet_kit_config`.
    public init(serviceId: String? = nil) { self.serviceId = serviceId }
}

/// Apple: its Services ID, secondary client IDs, and a redirect URI of its own.
public struct AppleOAuthProviderParams: Sendable, Equatable {
    /// The Services ID the sign-in uses (nil: `wallet_kit_config`'s).
    public var primaryClientId: AppleOAuthPrimaryClientId?
    /// Further client IDs of the same app family, registered as audiences of a new user at signup.
    public var secondaryClientIds: [String]?
    /// The provider's own redirect URI, used as given (it must match the provider's dashboard).
    public var redirectUri: String?
    /// Every field is optional.
    public init(primaryClientId: AppleOAuthPrimaryClientId? = nil, secondaryClientIds: [String]? = nil, redirectUri: String? = nil) {
        self.primaryClientId = primaryClientId
        self.secondaryClientIds = secondaryClientIds
        self.redirectUri = redirectUri
    }
}

/// X: its client ID, secondary client IDs, and a redirect URI of its own (default `<appScheme>://`).
public struct XOAuthProviderParams: Sendable, Equatable {
    /// The client ID the sign-in uses (nil: `wallet_kit_config`'s).
    public var primaryClientId: String?
    /// Further client IDs of the same app family, registered as audiences of a new user at signup.
    public var secondaryClientIds: [String]?
    /// The provider's own redirect URI, used as given (it must match the provider's dashboard).
    public var redirectUri: String?
    /// Every field is optional.
    public init(primaryClientId: String? = nil, secondaryClientIds: [String]? = nil, redirectUri: String? = nil) {
        self.primaryClientId = primaryClientId
        self.secondaryClientIds = secondaryClientIds
        self.redirectUri = redirectUri
    }
}

/// Discord: its client ID, secondary client IDs, and a redirect URI of its own (default `<appScheme>://`).
public struct DiscordOAuthProviderParams: Sendable, Equatable {
    /// The client ID the sign-in uses (nil: `wallet_kit_config`'s).
    public var primaryClientId: String?
    /// Further client IDs of the same app family, registered as audiences of a new user at signup.
    public var secondaryClientIds: [String]?
    /// The provider's own redirect URI, used as given (it must match the provider's dashboard).
    public var redirectUri: String?
    /// Every field is optional.
    public init(primaryClientId: String? = nil, secondaryClientIds: [String]? = nil, redirectUri: String? = nil) {
        self.primaryClientId = primaryClientId
        self.secondaryClientIds = secondaryClientIds
        self.redirectUri = redirectUri
    }
}

/// The providers' client IDs and redirect URIs. A provider left out takes its client ID from the
/// Auth Proxy's `wallet_kit_config`.
public struct OAuthProviders: Sendable, Equatable {
    /// Google's client IDs and redirect URI.
    public var google: GoogleOAuthProviderParams?
    /// Apple's Services ID and redirect URI.
    public var apple: AppleOAuthProviderParams?
    /// X's client IDs and redirect URI.
    public var x: XOAuthProviderParams?
    /// Discord's client IDs and redirect URI.
    public var discord: DiscordOAuthProviderParams?
    /// Every field is optional.
    public init(
        google: GoogleOAuthProviderParams? = nil, apple: AppleOAuthProviderParams? = nil, x: XOAuthProviderParams? = nil,
        discord: DiscordOAuthProviderParams? = nil
    ) {
        self.google = google
        self.apple = apple
        self.x = x
        self.discord = discord
    }
}

/// Where Turnkey is and how this app signs in to it, as the SDK's `TurnkeyConfig`.
public struct TurnkeyConfig: Sendable, Equatable {
    /// How the app authenticates: OAuth, session refresh and sub-organization defaults.
    public struct Auth: Sendable, Equatable {
        /// The app's URL scheme, the hosted redirect page and the providers.
        public struct Oauth: Sendable, Equatable {
            /// The providers' settings.
            public typealias Providers = OAuthProviders
            /// The base of the redirect page Google and Apple return through (`?scheme=` is added);
            /// nil: `wallet_kit_config`'s `oauthRedirectUrl`, else `https://oauth-redirect.turnkey.com`.
            public var redirectUri: String?
            /// The custom scheme the browser hands the sign-in back through; it must be registered
            /// with the desktop (`x-scheme-handler/<scheme>`). Required for every OAuth sign-in.
            public var appScheme: String?
            /// The providers' client IDs and redirect URIs.
            public var providers: Providers?
            /// Every field is optional.
            public init(redirectUri: String? = nil, appScheme: String? = nil, providers: Providers? = nil) {
                self.redirectUri = redirectUri
                self.appScheme = appScheme
                self.providers = providers
            }
        }

        /// `CreateSubOrgParams` for each authentication method; on Linux only `oauth` is used.
        public struct CreateSuborgParamsByAuthMethod: Sendable, Equatable {
            /// Email OTP signups (not used on Linux).
            public var emailOtpAuth: CreateSubOrgParams?
            /// SMS OTP signups (not used on Linux).
            public var smsOtpAuth: CreateSubOrgParams?
            /// Passkey signups (not used on Linux).
            public var passkeyAuth: CreateSubOrgParams?
            /// Wallet signups (not used on Linux).
            public var walletAuth: CreateSubOrgParams?
            /// What every OAuth signup creates its sub-organization with, unless a call passes its own.
            public var oauth: CreateSubOrgParams?
            /// Every field is optional.
            public init(
                emailOtpAuth: CreateSubOrgParams? = nil, smsOtpAuth: CreateSubOrgParams? = nil,
                passkeyAuth: CreateSubOrgParams? = nil, walletAuth: CreateSubOrgParams? = nil, oauth: CreateSubOrgParams? = nil
            ) {
                self.emailOtpAuth = emailOtpAuth
                self.smsOtpAuth = smsOtpAuth
                self.passkeyAuth = passkeyAuth
                self.walletAuth = walletAuth
                self.oauth = oauth
            }
        }

        /// The app scheme, redirect page and providers.
        public var oauth: Oauth?
        /// Refresh a session just before it expires (nil: on, the SDK's default); off, the session
        /// is cleared then instead.
        public var autoRefreshSession: Bool?
        /// What new users' sub-organizations are created with, by authentication method.
        public var createSuborgParams: CreateSuborgParamsByAuthMethod?

        /// Every field is optional.
        public init(oauth: Oauth? = nil, autoRefreshSession: Bool? = nil, createSuborgParams: CreateSuborgParamsByAuthMethod? = nil) {
            self.oauth = oauth
            self.autoRefreshSession = autoRefreshSession
            self.createSuborgParams = createSuborgParams
        }
    }

    /// Turnkey's API, the SDK's default.
    public static let defaultApiUrl = "https://api.turnkey.com"
    /// Turnkey's Auth Proxy, the SDK's default.
    public static let defaultAuthProxyUrl = "https://authproxy.turnkey.com"

    /// Turnkey's API (stamped requests: `get_user`, `list_wallets`, `stamp_login`…).
    public var apiUrl: String
    /// Turnkey's Auth Proxy (the sign-in endpoints).
    public var authProxyUrl: String
    /// The Auth Proxy config (Turnkey Dashboard); without one OAuth cannot work.
    public var authProxyConfigId: String?
    /// The passkey relying party; passkeys are not part of a Linux desktop sign-in, so it is kept only.
    public var rpId: String?
    /// The parent organization (blank: the one `wallet_kit_config` names).
    public var organizationId: String
    /// OAuth, session refresh and sub-organization defaults.
    public var auth: Auth?
    /// Kept as the SDK has it, which reads it but uses it nowhere; neither does this package.
    public var autoRefreshManagedState: Bool?

    /// The SDK's argument order (the organization first).
    public init(
        organizationId: String, apiUrl: String = defaultApiUrl, authProxyUrl: String = defaultAuthProxyUrl,
        authProxyConfigId: String? = nil, rpId: String? = nil, auth: Auth? = nil, autoRefreshManagedState: Bool? = nil
    ) {
        self.organizationId = organizationId
        self.apiUrl = apiUrl
        self.authProxyUrl = authProxyUrl
        self.authProxyConfigId = authProxyConfigId
        self.rpId = rpId
        self.auth = auth
        self.autoRefreshManagedState = autoRefreshManagedState
    }

    /// The order Turnkey's "Social logins (OAuth)" page writes (the URLs first).
    public init(
        apiUrl: String, authProxyUrl: String = defaultAuthProxyUrl, authProxyConfigId: String? = nil, rpId: String? = nil,
        organizationId: String, auth: Auth? = nil, autoRefreshManagedState: Bool? = nil
    ) {
        self.init(
            organizationId: organizationId, apiUrl: apiUrl, authProxyUrl: authProxyUrl, authProxyConfigId: authProxyConfigId,
            rpId: rpId, auth: auth, autoRefreshManagedState: autoRefreshManagedState)
    }

    /// The core's configuration: the URLs and IDs as given, the app scheme (blank when none is set,
    /// which `TurnkeyAuth` refuses as `invalidConfiguration(appScheme)`), the redirect page, each
    /// provider's client IDs and redirect URI. `oauthOriginUrl` and `authorizeUrls` move the hosted
    /// origin page and the Discord and X pages (the emulator's); nil and empty keep Turnkey's and the providers'.
    public func configuration(oauthOriginUrl: String? = nil, authorizeUrls: [TurnkeyProvider: String] = [:]) -> TurnkeyConfiguration {
        let oauth = auth?.oauth
        let providers = oauth?.providers
        var clientIds: [TurnkeyProvider: TurnkeyClientIds] = [:]
        var redirectUris: [TurnkeyProvider: String] = [:]
        func add(_ provider: TurnkeyProvider, _ primary: String?, _ secondary: [String]?, _ redirectUri: String?) {
            if primary != nil || secondary != nil { clientIds[provider] = TurnkeyClientIds(primary: primary, secondary: secondary ?? []) }
            if let redirectUri { redirectUris[provider] = redirectUri }
        }
        add(.google, providers?.google?.primaryClientId?.webClientId, providers?.google?.secondaryClientIds, providers?.google?.redirectUri)
        add(.apple, providers?.apple?.primaryClientId?.serviceId, providers?.apple?.secondaryClientIds, providers?.apple?.redirectUri)
        add(.x, providers?.x?.primaryClientId, providers?.x?.secondaryClientIds, providers?.x?.redirectUri)
        add(.discord, providers?.discord?.primaryClientId, providers?.discord?.secondaryClientIds, providers?.discord?.redirectUri)
        var configuration = TurnkeyConfiguration(
            authProxyUrl: authProxyUrl, authProxyConfigId: authProxyConfigId ?? "", apiUrl: apiUrl,
            organizationId: organizationId.nonBlank, appScheme: oauth?.appScheme ?? "", redirectUri: oauth?.redirectUri,
            clientIds: clientIds, oauthOriginUrl: oauthOriginUrl ?? TurnkeyConfiguration.defaultOAuthOriginUrl,
            authorizeUrls: authorizeUrls)
        configuration.redirectUris = redirectUris
        return configuration
    }
}
