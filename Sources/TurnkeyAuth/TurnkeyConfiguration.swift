import FoundationEssentials

/// A provider's OAuth client IDs: the primary one the sign-in uses, and secondary ones registered as
/// further audiences of the sub-organization at signup (a web and a desktop app sharing one user).
public struct TurnkeyClientIds: Sendable, Equatable {
    /// The client ID the sign-in uses; nil: `wallet_kit_config`'s.
    public var primary: String?
    /// Further client IDs added as audiences of a new sub-organization.
    public var secondary: [String]

    /// A provider's client IDs.
    public init(primary: String? = nil, secondary: [String] = []) {
        self.primary = primary
        self.secondary = secondary
    }
}

/// Where Turnkey lives and how this app signs in to it: the Linux counterpart of the SDK's
/// `TurnkeyConfig` OAuth part. What it leaves out (`nil`), `wallet_kit_config` supplies: enabled
/// providers, client IDs, the parent organization and the session lifetime.
public struct TurnkeyConfiguration: Sendable, Equatable {
    /// The custom scheme this app registers for callbacks.
    public static let defaultAppScheme = "io.github.portalauth.signin"
    /// The session key a call without one uses, unless the configuration names another.
    public static let defaultSessionKey = "default"
    /// The session lifetime (seconds) when neither the configuration nor `wallet_kit_config` gives one.
    public static let defaultSessionExpirationSeconds = "900"
    /// Turnkey's hosted page that starts a Google or Apple sign-in.
    public static let defaultOAuthOriginUrl = "https://oauth-origin.turnkey.com"
    /// Turnkey's hosted page Google and Apple redirect to, which hands the callback to `appScheme`.
    public static let defaultOAuthRedirectUrl = "https://oauth-redirect.turnkey.com"

    /// `https://authproxy.turnkey.com`; the emulator's `http://127.0.0.1:8790/turnkey/auth-proxy`.
    public var authProxyUrl: String
    /// The Auth Proxy config (Turnkey Dashboard) every sign-in uses.
    public var authProxyConfigId: String
    /// `https://api.turnkey.com`; the emulator's `http://127.0.0.1:8790/turnkey/api`.
    public var apiUrl: String
    /// The parent organization; nil: the one `wallet_kit_config` names.
    public var organizationId: String?
    /// The custom scheme the browser hands the sign-in back through.
    public var appScheme: String
    /// The base of the hosted redirect page for Google and Apple (`?scheme=` is added); nil:
    /// `wallet_kit_config`'s `oauthRedirectUrl`, else Turnkey's own page.
    public var redirectUri: String?
    /// Per provider; a provider left out takes its primary ID from `wallet_kit_config`.
    public var clientIds: [TurnkeyProvider: TurnkeyClientIds]
    /// A provider's own redirect URI, used as given (it must match the provider's dashboard): Google
    /// and Apple otherwise use the redirect page with `?scheme=`, Discord and X `<appScheme>://`. A
    /// Discord or X callback may then arrive at this URI as well as at `<appScheme>://`.
    public var redirectUris: [TurnkeyProvider: String] = [:]
    /// nil: `wallet_kit_config`'s `enabledProviders`.
    public var enabledProviders: [TurnkeyProvider]?
    /// Seconds, as Turnkey writes it; nil: `wallet_kit_config`'s, else 900.
    public var sessionExpirationSeconds: String?
    /// The session key a call without one uses.
    public var defaultSessionKey: String
    /// Turnkey's page that starts a Google or Apple sign-in (the emulator's in tests).
    public var oauthOriginUrl: String
    /// The PKCE providers' authorize endpoints where they differ from the provider table's (the
    /// emulator's pages, a proxy); a provider left out uses its row's.
    public var authorizeUrls: [TurnkeyProvider: String]

    /// A configuration; only the Auth Proxy URL, its config ID and the API URL are required.
    /// Nothing is checked until a `TurnkeyAuth` is made with it.
    public init(
        authProxyUrl: String, authProxyConfigId: String, apiUrl: String, organizationId: String? = nil,
        appScheme: String = defaultAppScheme, redirectUri: String? = nil,
        clientIds: [TurnkeyProvider: TurnkeyClientIds] = [:], enabledProviders: [TurnkeyProvider]? = nil,
        sessionExpirationSeconds: String? = nil, defaultSessionKey: String = defaultSessionKey,
        oauthOriginUrl: String = defaultOAuthOriginUrl, authorizeUrls: [TurnkeyProvider: String] = [:]
    ) {
        self.authProxyUrl = authProxyUrl
        self.authProxyConfigId = authProxyConfigId
        self.apiUrl = apiUrl
        self.organizationId = organizationId
        self.appScheme = appScheme
        self.redirectUri = redirectUri
        self.clientIds = clientIds
        self.enabledProviders = enabledProviders
        self.sessionExpirationSeconds = sessionExpirationSeconds
        self.defaultSessionKey = defaultSessionKey
        self.oauthOriginUrl = oauthOriginUrl
        self.authorizeUrls = authorizeUrls
    }

    /// Where a PKCE provider's sign-in starts: the configured endpoint, else the table's; nil for a
    /// provider that signs in through Turnkey's origin page.
    public func authorizeUrl(for provider: TurnkeyProvider) -> String? {
        guard let fromTable = provider.defaultAuthorizeUrl else { return nil }
        return authorizeUrls[provider] ?? fromTable
    }

    // MARK: Validation (also for the app's Preferences)

    /// What is wrong with a URL the configuration holds.
    public enum URLProblem: String, Error, Sendable, Equatable {
        /// Empty or only white space.
        case blank
        /// Not `scheme://host[:port][/path]`, or it carries a query, fragment or user name.
        case malformed
        /// `http` to a host other than loopback, or a scheme other than http(s): it would send
        /// tokens in the clear or somewhere unexpected.
        case notHTTPS
    }

    /// The URL of a Turnkey service or hosted page, trailing slashes removed, when it is `https`
    /// (or `http` to `localhost`/`127.0.0.1`, the emulator) with a host and no query or fragment.
    public static func serviceURL(_ text: String) -> Result<URL, URLProblem> {
        guard var trimmed = text.nonBlank else { return .failure(.blank) }
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty, components.query == nil, components.fragment == nil,
            components.user == nil, components.password == nil, let url = components.url
        else {
            return .failure(.malformed)
        }
        guard scheme == "https" || (scheme == "http" && Loopback.isLoopbackHost(host)) else { return .failure(.notHTTPS) }
        return .success(url)
    }

    /// Whether `text` can be a config ID, organization ID or session key: not blank, and no white
    /// space or control characters (the config ID travels in a header, the others in JSON and the keyring).
    public static func isValidIdentifier(_ text: String) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                !$0.properties.isWhitespace && $0.properties.generalCategory != .control && $0.properties.generalCategory != .format
            }
    }

    /// Whether `scheme` can carry the sign-in back to the app: a URL scheme (RFC 3986), not http(s).
    public static func isAppScheme(_ scheme: String) -> Bool {
        let bytes = Array(scheme.utf8)
        guard let first = bytes.first, isLetter(first) else { return false }
        let lowered = scheme.lowercased()
        return lowered != "http" && lowered != "https"
            && bytes.allSatisfy {
                isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// The configuration checked and normalised, or `invalidConfiguration` naming the first bad field.
    func validated() throws -> ValidatedConfiguration {
        func url(_ text: String, _ field: String) throws -> URL {
            switch Self.serviceURL(text) {
            case .success(let url): return url
            case .failure(let problem): throw TurnkeyAuthError.invalidConfiguration(field: field, problem: problem.rawValue)
            }
        }
        let authProxy = try url(authProxyUrl, "authProxyUrl")
        guard let configId = authProxyConfigId.nonBlank else {
            throw TurnkeyAuthError.invalidConfiguration(field: "authProxyConfigId", problem: URLProblem.blank.rawValue)
        }
        guard Self.isValidIdentifier(configId) else {
            throw TurnkeyAuthError.invalidConfiguration(field: "authProxyConfigId", problem: URLProblem.malformed.rawValue)
        }
        if let organization = organizationId?.nonBlank, !Self.isValidIdentifier(organization) {
            throw TurnkeyAuthError.invalidConfiguration(field: "organizationId", problem: URLProblem.malformed.rawValue)
        }
        let api = try url(apiUrl, "apiUrl")
        let scheme = appScheme.trimmed
        guard Self.isAppScheme(scheme) else {
            throw TurnkeyAuthError.invalidConfiguration(field: "appScheme", problem: "notACustomScheme")
        }
        // Validated, but kept as written: the provider compares the redirect URI byte for byte.
        let redirectBase = try redirectUri?.nonBlank.map { text -> String in
            _ = try url(text, "redirectUri")
            return text
        }
        if let seconds = sessionExpirationSeconds?.nonBlank, !(Int(seconds).map { $0 > 0 } ?? false) {
            throw TurnkeyAuthError.invalidConfiguration(field: "sessionExpirationSeconds", problem: "notAPositiveNumber")
        }
        guard let sessionKey = defaultSessionKey.nonBlank else {
            throw TurnkeyAuthError.invalidConfiguration(field: "defaultSessionKey", problem: URLProblem.blank.rawValue)
        }
        guard Self.isValidIdentifier(sessionKey) else {
            throw TurnkeyAuthError.invalidConfiguration(field: "defaultSessionKey", problem: URLProblem.malformed.rawValue)
        }
        var providerRedirects: [TurnkeyProvider: String] = [:]
        for (provider, text) in redirectUris {
            guard let uri = text.nonBlank, !uri.unicodeScalars.contains(where: { $0.properties.isWhitespace }),
                URLText(uri).scheme != nil
            else {
                throw TurnkeyAuthError.invalidConfiguration(
                    field: "\(provider.rawValue)RedirectUri", problem: URLProblem.malformed.rawValue)
            }
            providerRedirects[provider] = uri
        }
        let origin = try url(oauthOriginUrl, "oauthOriginUrl")
        var authorizeEndpoints: [TurnkeyProvider: URL] = [:]
        for provider in TurnkeyProvider.allCases {
            guard let text = authorizeUrl(for: provider) else { continue }
            authorizeEndpoints[provider] = try url(text, "\(provider.rawValue)AuthorizeUrl")
        }
        return ValidatedConfiguration(
            authProxyUrl: authProxy, authProxyConfigId: configId, apiUrl: api,
            organizationId: organizationId?.nonBlank, appScheme: scheme.lowercased(), redirectBase: redirectBase,
            clientIds: clientIds, redirectUris: providerRedirects, enabledProviders: enabledProviders,
            sessionExpirationSeconds: sessionExpirationSeconds?.nonBlank, defaultSessionKey: sessionKey,
            oauthOriginUrl: origin, authorizeUrls: authorizeEndpoints)
    }
}

/// A configuration that passed `validated()`: URLs parsed, blanks gone, the scheme lowercased.
struct ValidatedConfiguration: Sendable {
    let authProxyUrl: URL
    let authProxyConfigId: String
    let apiUrl: URL
    let organizationId: String?
    let appScheme: String
    let redirectBase: String?
    let clientIds: [TurnkeyProvider: TurnkeyClientIds]
    /// The providers' own redirect URIs, as given.
    let redirectUris: [TurnkeyProvider: String]
    let enabledProviders: [TurnkeyProvider]?
    let sessionExpirationSeconds: String?
    let defaultSessionKey: String
    let oauthOriginUrl: URL
    /// One for each PKCE provider.
    let authorizeUrls: [TurnkeyProvider: URL]

    /// Where Discord and X send the browser back, and the target every redirect of ours has.
    var appRedirect: String { appScheme + "://" }

    /// Where a callback may arrive: `<appScheme>://`, and the PKCE providers' own redirect URIs.
    var callbackTargets: [String] {
        [appRedirect] + TurnkeyProvider.allCases.filter(\.usesPKCE).compactMap { redirectUris[$0] }
    }
}
