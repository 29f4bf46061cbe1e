import FoundationEssentials

// `TurnkeyConfig` as Turnkey's Swift SDK spells it, so the seed page's configuration compiles as
// written; `configuration(…)` maps it onto `TurnkeyConfiguration`, which the core runs on.

/// Google's primary client ID: the web client the hosted origin page signs in with.
public struct GoogleOAuthPrimaryClientId: Sendable, Equatable {
    public var webClientId: String?
    public init(webClientId: String? = nil) { self.webClientId = webClientId }
}

/// Google: its primary client ID, secondary client IDs registered as further audiences at signup,
/// and a redirect URI of its own (used as given; default: the redirect page with `?scheme=`).
public struct GoogleOAuthProviderParams: Sendable, Equatable {
    public var primaryClientId: GoogleOAuthPrimaryClientId?
    public var secondaryClientIds: [String]?
    public var redirectUri: String?
    public init(primaryClientId: GoogleOAuthPrimaryClientId? = nil, secondaryClientIds: [String]? = nil, redirectUri: String? = nil) {
        self.primaryClientId = primaryClientId
        self.secondaryClientIds = secondaryClientIds
        self.redirectUri = redirectUri
    }
}

/// Apple's primary client ID: the Services ID the web flow signs in with (Linux has only the web flow).
public struct AppleOAuthPrimaryClientId: Sendable, Equatable {
    public var serviceId: String?
    public init(serviceId: String? = nil) { self.serviceId = serviceId }
}

/// Apple: its Services ID, secondary client IDs, and a redirect URI of its own.
public struct AppleOAuthProviderParams: Sendable, Equatable {
    public var primaryClientId: AppleOAuthPrimaryClientId?
    public var secondaryClientIds: [String]?
    public var redirectUri: String?
    public init(primaryClientId: AppleOAuthPrimaryClientId? = nil, secondaryClientIds: [String]? = nil, redirectUri: String? = nil) {
        self.primaryClientId = primaryClientId
        self.secondaryClientIds = secondaryClientIds
        self.redirectUri = redirectUri
    }
}

/// X: its client ID, secondary client IDs, and a redirect URI of its own (default `<appScheme>://`).
public struct XOAuthProviderParams: Sendable, Equatable {
    public var primaryClientId: String?
    public var secondaryClientIds: [String]?
    public var redirectUri: String?
    public init(primaryClientId: String? = nil, secondaryClientIds: [String]? = nil, redirectUri: String? = nil) {
        self.primaryClientId = primaryClientId
        self.secondaryClientIds = secondaryClientIds
        self.redirectUri = redirectUri
    }
}

/// Discord: its client ID, secondary client IDs, and a redirect URI of its own (default `<appScheme>://`).
public struct DiscordOAuthProviderParams: Sendable, Equatable {
    public var primaryClientId: String?
    public var secondaryClientIds: [String]?
    public var redirectUri: String?
    public init(primaryClientId: String? = nil, secondaryClientIds: [String]? = nil, redirectUri: String? = nil) {
        self.primaryClientId = primaryClientId
        self.secondaryClientIds = secondaryClientIds
        self.redirectUri = redirectUri
    }
}

/// The providers' client IDs and redirect URIs. A provider left out takes its client ID from the
/// Auth Proxy's `wallet_kit_config`.
public struct OAuthProviders: Sendable, Equatable {
    public var google: GoogleOAuthProviderParams?
    public var apple: AppleOAuthProviderParams?
    public var x: XOAuthProviderParams?
    public var discord: DiscordOAuthProviderParams?
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
            public typealias Providers = OAuthProviders
            /// The base of the redirect page Google and Apple return through (`?scheme=` is added);
            /// nil: `wallet_kit_config`'s `oauthRedirectUrl`, else `https://oauth-redirect.turnkey.com`.
            public var redirectUri: String?
            /// The custom scheme the browser hands the sign-in back through; it must be registered
            /// with the desktop (`x-scheme-handler/<scheme>`). Required for every OAuth sign-in.
            public var appScheme: String?
            public var providers: Providers?
            public init(redirectUri: String? = nil, appScheme: String? = nil, providers: Providers? = nil) {
                self.redirectUri = redirectUri
                self.appScheme = appScheme
                self.providers = providers
            }
        }

        /// `CreateSubOrgParams` for each authentication method; on Linux only `oauth` is used.
        public struct CreateSuborgParamsByAuthMethod: Sendable, Equatable {
            public var emailOtpAuth: CreateSubOrgParams?
            public var smsOtpAuth: CreateSubOrgParams?
            public var passkeyAuth: CreateSubOrgParams?
            public var walletAuth: CreateSubOrgParams?
            /// What every OAuth signup creates its sub-organization with, unless a call passes its own.
            public var oauth: CreateSubOrgParams?
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

        public var oauth: Oauth?
        /// Refresh a session just before it expires (nil: on, the SDK's default); off, the session
        /// is cleared then instead.
        public var autoRefreshSession: Bool?
        public var createSuborgParams: CreateSuborgParamsByAuthMethod?

        public init(oauth: Oauth? = nil, autoRefreshSession: Bool? = nil, createSuborgParams: CreateSuborgParamsByAuthMethod? = nil) {
            self.oauth = oauth
            self.autoRefreshSession = autoRefreshSession
            self.createSuborgParams = createSuborgParams
        }
    }

    public static let defaultApiUrl = "https://api.turnkey.com"
    public static let defaultAuthProxyUrl = "https://authproxy.turnkey.com"

    public var apiUrl: String
    public var authProxyUrl: String
    /// The Auth Proxy config (Turnkey Dashboard); without one OAuth cannot work.
    public var authProxyConfigId: String?
    /// The passkey relying party; passkeys are not part of a Linux desktop sign-in, so it is kept only.
    public var rpId: String?
    /// The parent organization (blank: the one `wallet_kit_config` names).
    public var organizationId: String
    public var auth: Auth?
    /// Refresh the user and wallets after changes the context makes (nil: on).
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
