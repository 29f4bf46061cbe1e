import AuthBase
import Foundation

/// One auth environment, as configured. The config file (`--config FILE`) is JSON:
///
///     {
///       "environments": [
///         {
///           "id": "local-dev",                                  required; letters, digits, '-', '_'
///           "name": "Local development",                        optional: the environment's name in clients/me
///           "appName": "Portal Sign-In Demo",                   optional: the custodian's (the app's) name in clients/me
///           "authMethods": ["GOOGLE", "APPLE", "EMAIL_MAGIC_LINK"],  required; any of these three
///           "redirectUrls": ["io.github.portalauth.signin://auth/callback"],  required, at least one;
///                                                               exact URLs, e.g. a loopback http://127.0.0.1:8791/auth/callback;
///                                                               http://127.0.0.1:0/PATH: that path on any port (RFC 8252)
///           "autoCreateWallet": true,                           optional, default true
///           "accountAbstraction": true,                         optional, default false
///           "providersWithoutCredentials": ["APPLE"],           optional: enabled providers whose
///                                                               credentials are missing (oauth/urls 401)
///           "users": [                                          optional test accounts (ConfigUser)
///             { "email": "alice@example.com", "name": "Alice", "needsTotp": false, "wallets": true }
///           ]
///         }
///       ],
///       "turnkey": { … }                                       optional, see TurnkeyConfig
///     }
///
/// Accounts not listed can still sign in (typed on the provider page or sent a magic link);
/// they never need TOTP and have no wallet. Keys the emulator does not know are ignored.
struct EnvironmentConfig: Equatable {
    static let defaultName = "Local development"
    static let defaultAppName = "Portal Sign-In Demo"

    var id: String
    /// The environment's name in `clients/me` (`environment.name`).
    var name: String = defaultName
    /// The custodian's name in `clients/me` (`custodian.name`): the app, as Portal's dashboard names it.
    var appName: String = defaultAppName
    var authMethods: [AuthMethod]
    var redirectUrls: [String]
    var autoCreateWallet: Bool
    var accountAbstraction: Bool
    /// Providers enabled without their client credentials in the dashboard: Portal then refuses to
    /// start any OAuth sign-in for the environment (401 from `oauth/urls`, whichever provider).
    var providersWithoutCredentials: [AuthMethod] = []
    var users: [ConfigUser]

    var magicLinksEnabled: Bool { authMethods.contains(.emailMagicLink) }

    /// The first enabled provider that has no credentials, if any.
    var enabledProviderWithoutCredentials: AuthMethod? {
        providersWithoutCredentials.first { $0 != .emailMagicLink && authMethods.contains($0) }
    }
}

struct EmulatorConfig: Equatable {
    var environments: [EnvironmentConfig]
    /// Turnkey's Auth Proxy configs (the built-in `local-dev` when the file has no `turnkey` section).
    var turnkey: TurnkeyConfig = .builtIn

    static let knownAuthMethods = AuthMethod.allCases.map(\.rawValue)

    /// The built-in `local-dev` environment (the same as data/emulator/local-dev.json).
    static let builtIn = EmulatorConfig(environments: [
        EnvironmentConfig(
            id: "local-dev",
            authMethods: [.emailMagicLink, .google, .apple],
            // The app's scheme, and a loopback redirect on any port (the CLI, the SDK's examples).
            redirectUrls: ["io.github.portalauth.signin://auth/callback", "http://127.0.0.1:0/auth/callback"],
            autoCreateWallet: true,
            accountAbstraction: true,
            users: [
                .init(email: "alice@example.com", name: "Alice Example", needsTotp: false, hasWallets: true),
                .init(email: "totp@example.com", name: "Tess Totp", needsTotp: true)
            ])
    ])

    func environment(_ id: String) -> EnvironmentConfig? { environments.first { $0.id == id } }
}

/// A test account the fake provider pages list (`users` of an environment or of `turnkey`).
/// Accounts not listed can still sign in; they never need TOTP.
struct ConfigUser: Equatable, Decodable {
    var email: String
    var name: String
    /// Portal asks this account for a TOTP code after the sign-in.
    var needsTotp: Bool
    /// The account's client has an EVM and a Solana wallet (`"wallets": true`); otherwise none yet.
    var hasWallets: Bool

    init(email: String, name: String, needsTotp: Bool = false, hasWallets: Bool = false) {
        self.email = email
        self.name = name
        self.needsTotp = needsTotp
        self.hasWallets = hasWallets
    }

    private enum Keys: String, CodingKey { case email, name, needsTotp, wallets }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        let email = (try fields.optional(.email, or: "must be an email address") as String?).map(Emails.normalize)
        guard let email, Emails.isPlausible(email) else {
            throw ConfigError(path: fields.path(.email), problem: "must be an email address")
        }
        self.init(
            email: email, name: try fields.optional(.name, or: "must be a string") ?? "",
            needsTotp: try fields.optional(.needsTotp, or: "must be true or false") ?? false,
            hasWallets: try fields.optional(.wallets, or: "must be true or false") ?? false)
    }

    /// `users`, each email once; the second of two is at fault.
    static func list(_ users: [ConfigUser]?, at path: [any CodingKey]) throws -> [ConfigUser] {
        let users = users ?? []
        for (index, user) in users.enumerated() where users[..<index].contains(where: { $0.email == user.email }) {
            throw ConfigError(path: path + [ConfigKey(index), ConfigKey("email")], problem: "duplicate user \(user.email)")
        }
        return users
    }
}

extension EnvironmentConfig: Decodable {
    private enum Keys: String, CodingKey {
        case id, name, appName, authMethods, redirectUrls, autoCreateWallet, accountAbstraction, providersWithoutCredentials, users
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        let idProblem = "must be a non-empty string of letters, digits, '-' or '_'"
        let id: String? = try fields.optional(.id, or: idProblem)
        guard let id, ConfigLoader.isIdentifier(id) else { throw ConfigError(path: fields.path(.id), problem: idProblem) }
        let methodsProblem = ConfigLoader.methodsProblem
        self.init(
            id: id,
            name: try fields.optional(.name, or: "must be a string") ?? Self.defaultName,
            appName: try fields.optional(.appName, or: "must be a string") ?? Self.defaultAppName,
            authMethods: try ConfigLoader.methods(
                fields.strings(.authMethods, or: methodsProblem), field: ConfigError.field(fields.path(.authMethods)), required: true),
            redirectUrls: try ConfigLoader.redirectUrls(
                fields.strings(.redirectUrls, or: ConfigLoader.redirectUrlsProblem), field: ConfigError.field(fields.path(.redirectUrls))),
            autoCreateWallet: try fields.optional(.autoCreateWallet, or: "must be true or false") ?? true,
            accountAbstraction: try fields.optional(.accountAbstraction, or: "must be true or false") ?? false,
            providersWithoutCredentials: try ConfigLoader.methods(
                fields.strings(.providersWithoutCredentials, or: methodsProblem),
                field: ConfigError.field(fields.path(.providersWithoutCredentials)), required: false),
            users: try ConfigUser.list(fields.optional(.users, or: "must be an array of users"), at: fields.path(.users)))
    }
}

extension EmulatorConfig: Decodable {
    private enum Keys: String, CodingKey { case environments, turnkey }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        let environments: [EnvironmentConfig] = try fields.required(.environments, or: "must be an array of environments")
        guard !environments.isEmpty else { throw ConfigError(path: fields.path(.environments), problem: "must not be empty") }
        for (index, environment) in environments.enumerated() where environments[..<index].contains(where: { $0.id == environment.id }) {
            throw ConfigError(
                path: fields.path(.environments) + [ConfigKey(index), ConfigKey("id")], problem: "duplicate id \"\(environment.id)\"")
        }
        self.init(environments: environments, turnkey: try fields.optional(.turnkey, or: "must be an object") ?? .builtIn)
    }
}

enum Emails {
    static func normalize(_ email: String) -> String { email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }

    /// Something@something, no spaces, not absurdly long: enough for a test environment.
    static func isPlausible(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && email.count <= 254
            && !email.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "\"" })
    }
}
