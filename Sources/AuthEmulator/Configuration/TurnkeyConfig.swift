import AuthBase
import Foundation

/// The `turnkey` section of the config file: Auth Proxy configs and the accounts the fake provider
/// pages offer. Without the section the emulator uses `TurnkeyConfig.builtIn`.
///
///     "turnkey": {
///       "authProxyConfigs": [
///         {
///           "id": "local-dev",                           required; letters, digits, '-', '_'
///           "organizationId": "…",                       optional parent organization (default: derived from id)
///           "organizationName": "…",                     optional
///           "sessionExpirationSeconds": 900,             optional, 1 to 31536000
///           "providers": {                               google, apple, discord, x; each listed one is enabled
///             "google": {
///               "clientId": "emulator-turnkey-google",   required; wallet_kit_config's oauthClientIds
///               "secondaryClientIds": ["…"],             optional: more apps the fake provider knows; the Auth Proxy
///                                                        accepts their tokens where signup registered them
///               "redirectUris": ["/turnkey/oauth-redirect?scheme=io.github.portalauth.signin"]
///             }                                          required; "/…" is a path on the emulator itself
///           }
///         }
///       ],
///       "users": [{ "email": "alice@example.com", "name": "Alice Example" }]   optional
///     }
struct TurnkeyConfig: Equatable {
    var authProxyConfigs: [AuthProxyConfig]
    /// Accounts the fake provider pages list (anyone else can be typed in); `needsTotp` is Portal's.
    var users: [ConfigUser]

    struct AuthProxyConfig: Equatable {
        var id: String
        /// The parent organization sub-organizations are created under.
        var organizationId: String
        var organizationName: String
        var sessionExpirationSeconds: Int
        /// Enabled providers, in the table's order (google, apple, discord, x).
        var clients: [(provider: IdentityProvider, client: OAuthClient)]

        var enabledProviders: [IdentityProvider] { clients.map(\.provider) }
        func client(_ provider: IdentityProvider) -> OAuthClient? { clients.first { $0.provider == provider }?.client }

        static func == (a: Self, b: Self) -> Bool {
            a.id == b.id && a.organizationId == b.organizationId && a.organizationName == b.organizationName
                && a.sessionExpirationSeconds == b.sessionExpirationSeconds
                && a.clients.map(\.provider) == b.clients.map(\.provider) && a.clients.map(\.client) == b.clients.map(\.client)
        }
    }

    /// One app registered at a provider: its primary client ID, further client IDs of the same app
    /// family, and the redirect URIs the provider accepts for all of them (exact string match).
    struct OAuthClient: Equatable {
        var clientId: String
        var secondaryClientIds: [String]
        var redirectUris: [String]

        var allClientIds: [String] { [clientId] + secondaryClientIds }
    }

    func authProxyConfig(_ id: String) -> AuthProxyConfig? { authProxyConfigs.first { $0.id == id } }

    /// The Auth Proxy config and app a provider's client ID belongs to (client IDs are unique).
    func registeredClient(_ provider: IdentityProvider, clientId: String) -> (config: AuthProxyConfig, client: OAuthClient)? {
        for config in authProxyConfigs {
            if let client = config.client(provider), client.allClientIds.contains(clientId) { return (config, client) }
        }
        return nil
    }

    static let defaultSessionExpirationSeconds = 900
    static let appScheme = "io.github.portalauth.signin"

    /// The built-in `local-dev` Auth Proxy config (the same as data/emulator/local-dev.json).
    static let builtIn: TurnkeyConfig = {
        let hostedRedirect = ["/turnkey/oauth-redirect?scheme=\(appScheme)"]
        let appRedirect = ["\(appScheme)://"]
        func client(_ provider: IdentityProvider, _ redirectUris: [String]) -> (IdentityProvider, OAuthClient) {
            (
                provider,
                OAuthClient(
                    clientId: "emulator-turnkey-\(provider.rawValue)",
                    secondaryClientIds: ["emulator-turnkey-\(provider.rawValue)-secondary"],
                    redirectUris: redirectUris)
            )
        }
        return TurnkeyConfig(
            authProxyConfigs: [
                AuthProxyConfig(
                    id: "local-dev",
                    organizationId: derivedOrganizationId(configId: "local-dev"),
                    organizationName: defaultOrganizationName(configId: "local-dev"),
                    sessionExpirationSeconds: defaultSessionExpirationSeconds,
                    // Every provider Turnkey offers; the PKCE ones answer the app's scheme directly,
                    // the others through the hosted redirect page.
                    clients: IdentityProvider.allCases.filter { $0.offer(on: .turnkey) != nil }.map {
                        client($0, $0.authProxyProvider == nil ? hostedRedirect : appRedirect)
                    })
            ],
            users: [ConfigUser(email: "alice@example.com", name: "Alice Example")])
    }()

    /// A UUID-shaped parent organization ID, stable for a config ID (Turnkey's IDs are UUIDs).
    static func derivedOrganizationId(configId: String) -> String {
        Identifiers.uuid(fromHex: Crypto.sha256Hex("turnkey-organization|\(configId)"))
    }

    static func defaultOrganizationName(configId: String) -> String { "Emulator parent organization (\(configId))" }
}

// Decoding the `turnkey` section; every error names the field at fault by its coding path.

extension TurnkeyConfig: Decodable {
    private enum Keys: String, CodingKey { case authProxyConfigs, users }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        let problem = "must be a non-empty array of Auth Proxy configs"
        let configs: [AuthProxyConfig] = try fields.required(.authProxyConfigs, or: problem)
        guard !configs.isEmpty else { throw ConfigError(path: fields.path(.authProxyConfigs), problem: problem) }
        var seenClientIds: Set<String> = []
        for (index, config) in configs.enumerated() {
            let at = fields.path(.authProxyConfigs) + [ConfigKey(index)]
            if configs[..<index].contains(where: { $0.id == config.id }) {
                throw ConfigError(path: at + [ConfigKey("id")], problem: "duplicate id \"\(config.id)\"")
            }
            // A client ID names one provider's app in one config: the fake pages find the app by it.
            for (provider, client) in config.clients {
                let names = ["clientId"] + client.secondaryClientIds.indices.map { "secondaryClientIds[\($0)]" }
                for (name, id) in zip(names, client.allClientIds) where !seenClientIds.insert(id).inserted {
                    throw ConfigError(
                        field: ConfigError.field(at + [ConfigKey("providers"), ConfigKey(provider.rawValue)]) + "." + name,
                        problem: "duplicate client ID \"\(id)\" (each client ID belongs to one provider and config)")
                }
            }
        }
        self.init(
            authProxyConfigs: configs,
            users: try ConfigUser.list(fields.optional(.users, or: "must be an array of users"), at: fields.path(.users)))
    }
}

extension TurnkeyConfig.AuthProxyConfig: Decodable {
    private enum Keys: String, CodingKey { case id, organizationId, organizationName, sessionExpirationSeconds, providers }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        let idProblem = "must be a non-empty string of letters, digits, '-' or '_'"
        let id: String? = try fields.optional(.id, or: idProblem)
        guard let id, ConfigLoader.isIdentifier(id) else { throw ConfigError(path: fields.path(.id), problem: idProblem) }
        func nonEmpty(_ key: Keys) throws -> String? {
            let text: String? = try fields.optional(key, or: "must be a non-empty string")
            if text?.isEmpty == true { throw ConfigError(path: fields.path(key), problem: "must be a non-empty string") }
            return text
        }
        let secondsProblem = "must be a whole number of seconds from 1 to 31536000"
        let seconds: Double? = try fields.optional(.sessionExpirationSeconds, or: secondsProblem)
        if let seconds, seconds != seconds.rounded() || !(1...31_536_000).contains(seconds) {
            throw ConfigError(path: fields.path(.sessionExpirationSeconds), problem: secondsProblem)
        }
        let known = IdentityProvider.allCases.map(\.rawValue)
        let providersProblem = "must be an object with any of \(known.joined(separator: ", "))"
        guard fields.contains(.providers), (try? fields.decodeNil(forKey: .providers)) == false,
            let providers = try? fields.nestedContainer(keyedBy: ConfigKey.self, forKey: .providers)
        else {
            throw ConfigError(path: fields.path(.providers), problem: providersProblem)
        }
        if let unknown = providers.allKeys.map(\.stringValue).sorted().first(where: { !known.contains($0) }) {
            throw ConfigError(
                path: fields.path(.providers) + [ConfigKey(unknown)], problem: "unknown provider; use \(known.joined(separator: ", "))")
        }
        // In the table's order, whatever the file's.
        var clients: [(provider: IdentityProvider, client: TurnkeyConfig.OAuthClient)] = []
        for provider in IdentityProvider.allCases {
            guard let client = try providers.decodeIfPresent(TurnkeyConfig.OAuthClient.self, forKey: ConfigKey(provider.rawValue)) else {
                continue
            }
            clients.append((provider, client))
        }
        self.init(
            id: id, organizationId: try nonEmpty(.organizationId) ?? TurnkeyConfig.derivedOrganizationId(configId: id),
            organizationName: try nonEmpty(.organizationName) ?? TurnkeyConfig.defaultOrganizationName(configId: id),
            sessionExpirationSeconds: seconds.map(Int.init) ?? TurnkeyConfig.defaultSessionExpirationSeconds, clients: clients)
    }
}

extension TurnkeyConfig.OAuthClient: Decodable {
    private enum Keys: String, CodingKey { case clientId, secondaryClientIds, redirectUris }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        let clientId: String? = try fields.optional(.clientId, or: "must be a non-empty string")
        guard let clientId, !clientId.isEmpty else {
            throw ConfigError(path: fields.path(.clientId), problem: "must be a non-empty string")
        }
        let secondary = try fields.strings(.secondaryClientIds, or: "must be an array of client IDs") ?? []
        for (index, id) in secondary.enumerated() where id?.isEmpty ?? true {
            throw ConfigError(path: fields.path(.secondaryClientIds) + [ConfigKey(index)], problem: "must be a non-empty string")
        }
        let urisProblem = "must be a non-empty array of redirect URIs"
        guard let uris = try fields.strings(.redirectUris, or: urisProblem), !uris.isEmpty else {
            throw ConfigError(path: fields.path(.redirectUris), problem: urisProblem)
        }
        for (index, uri) in uris.enumerated() {
            guard let uri, uri.hasPrefix("/") || uri.contains(":"), uri == uri.trimmingCharacters(in: .whitespacesAndNewlines) else {
                throw ConfigError(
                    path: fields.path(.redirectUris) + [ConfigKey(index)],
                    problem:
                        "must be an absolute URI such as myapp:// or a path on the emulator such as /turnkey/oauth-redirect?scheme=myapp")
            }
        }
        self.init(clientId: clientId, secondaryClientIds: secondary.compactMap { $0 }, redirectUris: uris.compactMap { $0 })
    }
}
