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
    /// Accounts the fake provider pages list (anyone else can be typed in).
    var users: [Account]

    struct AuthProxyConfig: Equatable {
        var id: String
        /// The parent organization sub-organizations are created under.
        var organizationId: String
        var organizationName: String
        var sessionExpirationSeconds: Int
        /// Enabled providers, in the order google, apple, discord, x.
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

    struct Account: Equatable {
        var email: String
        var name: String
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
            users: [Account(email: "alice@example.com", name: "Alice Example")])
    }()

    /// A UUID-shaped parent organization ID, stable for a config ID (Turnkey's IDs are UUIDs).
    static func derivedOrganizationId(configId: String) -> String {
        Identifiers.uuid(fromHex: Crypto.sha256Hex("turnkey-organization|\(configId)"))
    }

    static func defaultOrganizationName(configId: String) -> String { "Emulator parent organization (\(configId))" }
}

/// Reads the `turnkey` section, naming the field at fault in every error.
enum TurnkeyConfigLoader {
    static func parse(_ value: Any, field: String) throws -> TurnkeyConfig {
        guard let object = value as? [String: Any] else { throw ConfigError(field: field, problem: "must be an object") }
        guard let list = object["authProxyConfigs"] as? [Any], !list.isEmpty else {
            throw ConfigError(field: "\(field).authProxyConfigs", problem: "must be a non-empty array of Auth Proxy configs")
        }
        var configs: [TurnkeyConfig.AuthProxyConfig] = []
        var seenClientIds: Set<String> = []
        for (index, item) in list.enumerated() {
            let configField = "\(field).authProxyConfigs[\(index)]"
            let config = try parseAuthProxyConfig(item, field: configField, seenClientIds: &seenClientIds)
            if configs.contains(where: { $0.id == config.id }) {
                throw ConfigError(field: "\(configField).id", problem: "duplicate id \"\(config.id)\"")
            }
            configs.append(config)
        }
        return TurnkeyConfig(authProxyConfigs: configs, users: try parseUsers(object["users"], field: "\(field).users"))
    }

    private static func parseAuthProxyConfig(
        _ item: Any, field: String,
        seenClientIds: inout Set<String>
    ) throws -> TurnkeyConfig.AuthProxyConfig {
        guard let object = item as? [String: Any] else { throw ConfigError(field: field, problem: "must be an object") }
        let fields = JSONFields(object: object)
        guard let id = fields.string("id"), ConfigLoader.isIdentifier(id) else {
            throw ConfigError(field: "\(field).id", problem: "must be a non-empty string of letters, digits, '-' or '_'")
        }
        let organizationId =
            try optionalString(fields, "organizationId", field: field)
            ?? TurnkeyConfig.derivedOrganizationId(configId: id)
        let organizationName =
            try optionalString(fields, "organizationName", field: field)
            ?? TurnkeyConfig.defaultOrganizationName(configId: id)
        var expiration = TurnkeyConfig.defaultSessionExpirationSeconds
        if fields.has("sessionExpirationSeconds") {
            guard let seconds = fields.number("sessionExpirationSeconds"), seconds == seconds.rounded(),
                (1...31_536_000).contains(seconds)
            else {
                throw ConfigError(
                    field: "\(field).sessionExpirationSeconds", problem: "must be a whole number of seconds from 1 to 31536000")
            }
            expiration = Int(seconds)
        }
        guard let providers = object["providers"] as? [String: Any] else {
            throw ConfigError(
                field: "\(field).providers",
                problem: "must be an object with any of \(IdentityProvider.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let known = IdentityProvider.allCases.map(\.rawValue)
        if let unknown = providers.keys.sorted().first(where: { !known.contains($0) }) {
            throw ConfigError(field: "\(field).providers.\(unknown)", problem: "unknown provider; use \(known.joined(separator: ", "))")
        }
        var clients: [(provider: IdentityProvider, client: TurnkeyConfig.OAuthClient)] = []
        for provider in IdentityProvider.allCases {
            guard let value = providers[provider.rawValue] else { continue }
            let client = try parseClient(value, field: "\(field).providers.\(provider.rawValue)", seenClientIds: &seenClientIds)
            clients.append((provider, client))
        }
        return .init(
            id: id, organizationId: organizationId, organizationName: organizationName,
            sessionExpirationSeconds: expiration, clients: clients)
    }

    private static func parseClient(_ value: Any, field: String, seenClientIds: inout Set<String>) throws -> TurnkeyConfig.OAuthClient {
        guard let object = value as? [String: Any] else { throw ConfigError(field: field, problem: "must be an object") }
        guard let clientId = JSONFields(object: object).string("clientId"), !clientId.isEmpty else {
            throw ConfigError(field: "\(field).clientId", problem: "must be a non-empty string")
        }
        var secondary: [String] = []
        if object["secondaryClientIds"] != nil {
            guard let list = object["secondaryClientIds"] as? [Any] else {
                throw ConfigError(field: "\(field).secondaryClientIds", problem: "must be an array of client IDs")
            }
            for (index, item) in list.enumerated() {
                guard let text = item as? String, !text.isEmpty else {
                    throw ConfigError(field: "\(field).secondaryClientIds[\(index)]", problem: "must be a non-empty string")
                }
                secondary.append(text)
            }
        }
        for (name, id) in [("clientId", clientId)] + secondary.enumerated().map({ ("secondaryClientIds[\($0.offset)]", $0.element) }) {
            guard seenClientIds.insert(id).inserted else {
                throw ConfigError(
                    field: "\(field).\(name)", problem: "duplicate client ID \"\(id)\" (each client ID belongs to one provider and config)")
            }
        }
        guard let uris = object["redirectUris"] as? [Any], !uris.isEmpty else {
            throw ConfigError(field: "\(field).redirectUris", problem: "must be a non-empty array of redirect URIs")
        }
        var redirectUris: [String] = []
        for (index, item) in uris.enumerated() {
            guard let text = item as? String, text.hasPrefix("/") || text.contains(":"),
                text == text.trimmingCharacters(in: .whitespacesAndNewlines)
            else {
                throw ConfigError(
                    field: "\(field).redirectUris[\(index)]",
                    problem:
                        "must be an absolute URI such as myapp:// or a path on the emulator such as /turnkey/oauth-redirect?scheme=myapp")
            }
            redirectUris.append(text)
        }
        return .init(clientId: clientId, secondaryClientIds: secondary, redirectUris: redirectUris)
    }

    private static func parseUsers(_ value: Any?, field: String) throws -> [TurnkeyConfig.Account] {
        guard let value else { return [] }
        guard let list = value as? [Any] else { throw ConfigError(field: field, problem: "must be an array of users") }
        var users: [TurnkeyConfig.Account] = []
        for (index, item) in list.enumerated() {
            let userField = "\(field)[\(index)]"
            guard let object = item as? [String: Any] else { throw ConfigError(field: userField, problem: "must be an object") }
            let fields = JSONFields(object: object)
            guard let email = fields.string("email").map(Emails.normalize), Emails.isPlausible(email) else {
                throw ConfigError(field: "\(userField).email", problem: "must be an email address")
            }
            if users.contains(where: { $0.email == email }) {
                throw ConfigError(field: "\(userField).email", problem: "duplicate user \(email)")
            }
            let name = try optionalString(fields, "name", field: userField, allowEmpty: true) ?? ""
            users.append(.init(email: email, name: name))
        }
        return users
    }

    private static func optionalString(_ fields: JSONFields, _ key: String, field: String, allowEmpty: Bool = false) throws -> String? {
        guard fields.has(key) else { return nil }
        guard let text = fields.string(key), allowEmpty || !text.isEmpty else {
            throw ConfigError(field: "\(field).\(key)", problem: allowEmpty ? "must be a string" : "must be a non-empty string")
        }
        return text
    }
}
