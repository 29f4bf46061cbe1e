import AuthBase
import Foundation

/// One auth environment, as configured. The config file (`--config FILE`) is JSON:
///
///     {
///       "environments": [
///         {
///           "id": "local-dev",                                  required; letters, digits, '-', '_'
///           "authMethods": ["GOOGLE", "APPLE", "EMAIL_MAGIC_LINK"],  required; any of these three
///           "redirectUrls": ["io.github.portalauth.signin://auth/callback"],  required, at least one;
///                                                               exact URLs, e.g. a loopback http://127.0.0.1:8791/auth/callback
///           "autoCreateWallet": true,                           optional, default true
///           "accountAbstraction": true,                         optional, default false
///           "providersWithoutCredentials": ["APPLE"],           optional: enabled providers whose
///                                                               credentials are missing (oauth/urls 401)
///           "users": [                                          optional test accounts
///             { "email": "alice@example.com", "name": "Alice", "needsTotp": false }
///           ]
///         }
///       ],
///       "turnkey": { … }                                       optional, see TurnkeyConfig
///     }
///
/// Accounts not listed can still sign in (typed on the provider page or sent a magic link);
/// they never need TOTP.
struct EnvironmentConfig: Equatable {
    var id: String
    var authMethods: [AuthMethod]
    var redirectUrls: [String]
    var autoCreateWallet: Bool
    var accountAbstraction: Bool
    /// Providers enabled without their client credentials in the dashboard: Portal then refuses to
    /// start any OAuth sign-in for the environment (401 from `oauth/urls`, whichever provider).
    var providersWithoutCredentials: [AuthMethod] = []
    var users: [TestUser]

    struct TestUser: Equatable {
        var email: String
        var name: String
        var needsTotp: Bool
    }

    var googleEnabled: Bool { authMethods.contains(.google) }
    var appleEnabled: Bool { authMethods.contains(.apple) }
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
            redirectUrls: ["io.github.portalauth.signin://auth/callback"],
            autoCreateWallet: true,
            accountAbstraction: true,
            users: [
                .init(email: "alice@example.com", name: "Alice Example", needsTotp: false),
                .init(email: "totp@example.com", name: "Tess Totp", needsTotp: true)
            ])
    ])

    func environment(_ id: String) -> EnvironmentConfig? { environments.first { $0.id == id } }
}

/// A config file problem, naming the field at fault.
struct ConfigError: Error, CustomStringConvertible {
    let field: String
    let problem: String
    var description: String { field.isEmpty ? problem : "\(field): \(problem)" }
}

enum ConfigLoader {
    static func load(path: String) throws -> EmulatorConfig {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(field: "", problem: "cannot read config file \(path)")
        }
        return try parse(data)
    }

    static func parse(_ data: Data) throws -> EmulatorConfig {
        guard let root = JSON.object(from: data) else {
            throw ConfigError(field: "", problem: "the config file is not a JSON object")
        }
        guard let list = root["environments"] as? [Any] else {
            throw ConfigError(field: "environments", problem: "must be an array of environments")
        }
        guard !list.isEmpty else { throw ConfigError(field: "environments", problem: "must not be empty") }
        var environments: [EnvironmentConfig] = []
        for (index, item) in list.enumerated() {
            let environment = try parseEnvironment(item, field: "environments[\(index)]")
            if environments.contains(where: { $0.id == environment.id }) {
                throw ConfigError(field: "environments[\(index)].id", problem: "duplicate id \"\(environment.id)\"")
            }
            environments.append(environment)
        }
        let turnkey = try root["turnkey"].map { try TurnkeyConfigLoader.parse($0, field: "turnkey") } ?? .builtIn
        return EmulatorConfig(environments: environments, turnkey: turnkey)
    }

    /// Letters, digits, '-' and '_': environment and Auth Proxy config IDs.
    static func isIdentifier(_ id: String) -> Bool {
        !id.isEmpty && id.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" || $0 == "_" }
    }

    private static func parseEnvironment(_ item: Any, field: String) throws -> EnvironmentConfig {
        guard let object = item as? [String: Any] else { throw ConfigError(field: field, problem: "must be an object") }
        let fields = JSONFields(object: object)

        guard let id = fields.string("id"), isIdentifier(id) else {
            throw ConfigError(field: "\(field).id", problem: "must be a non-empty string of letters, digits, '-' or '_'")
        }

        let authMethods = try methodList(object["authMethods"], field: "\(field).authMethods", required: true)

        let redirectUrls = try redirectUrlList(object["redirectUrls"], field: "\(field).redirectUrls")

        let providersWithoutCredentials = try methodList(
            object["providersWithoutCredentials"], field: "\(field).providersWithoutCredentials",
            required: false)
        let autoCreateWallet = try optionalBool(fields, "autoCreateWallet", field: field, default: true)
        let accountAbstraction = try optionalBool(fields, "accountAbstraction", field: field, default: false)

        var users: [EnvironmentConfig.TestUser] = []
        if fields.has("users") {
            guard let list = object["users"] as? [Any] else {
                throw ConfigError(field: "\(field).users", problem: "must be an array of users")
            }
            for (index, item) in list.enumerated() {
                let userField = "\(field).users[\(index)]"
                guard let user = item as? [String: Any] else { throw ConfigError(field: userField, problem: "must be an object") }
                let userFields = JSONFields(object: user)
                guard let email = userFields.string("email").map(Emails.normalize), Emails.isPlausible(email) else {
                    throw ConfigError(field: "\(userField).email", problem: "must be an email address")
                }
                if users.contains(where: { $0.email == email }) {
                    throw ConfigError(field: "\(userField).email", problem: "duplicate user \(email)")
                }
                if userFields.has("name"), userFields.string("name") == nil {
                    throw ConfigError(field: "\(userField).name", problem: "must be a string")
                }
                let needsTotp = try optionalBool(userFields, "needsTotp", field: userField, default: false)
                users.append(.init(email: email, name: userFields.string("name") ?? "", needsTotp: needsTotp))
            }
        }
        return EnvironmentConfig(
            id: id, authMethods: authMethods, redirectUrls: redirectUrls,
            autoCreateWallet: autoCreateWallet, accountAbstraction: accountAbstraction,
            providersWithoutCredentials: providersWithoutCredentials, users: users)
    }
    /// The allow list of redirect URLs, compared byte for byte as Portal does: a custom scheme
    /// (`myapp://auth/callback`) or a loopback one (`http://127.0.0.1:8791/auth/callback`).
    static func redirectUrlList(_ value: Any?, field: String) throws -> [String] {
        guard let urls = value as? [Any], !urls.isEmpty else {
            throw ConfigError(field: field, problem: "must be a non-empty array of URLs")
        }
        var redirectUrls: [String] = []
        for (index, url) in urls.enumerated() {
            guard let text = url as? String, text.contains(":"), text == text.trimmingCharacters(in: .whitespacesAndNewlines) else {
                throw ConfigError(field: "\(field)[\(index)]", problem: "must be an absolute URL such as myapp://auth/callback")
            }
            redirectUrls.append(text)
        }
        return redirectUrls
    }

    /// An array of sign-in method names (GOOGLE, APPLE, EMAIL_MAGIC_LINK), duplicates dropped; `[]`
    /// when absent and not `required`. Also reads the admin API's environment changes.
    static func methodList(_ value: Any?, field: String, required: Bool) throws -> [AuthMethod] {
        guard let value else {
            if required {
                throw ConfigError(field: field, problem: "must be an array of \(EmulatorConfig.knownAuthMethods.joined(separator: ", "))")
            }
            return []
        }
        guard let methods = value as? [Any] else {
            throw ConfigError(field: field, problem: "must be an array of \(EmulatorConfig.knownAuthMethods.joined(separator: ", "))")
        }
        var list: [AuthMethod] = []
        for (index, method) in methods.enumerated() {
            guard let name = method as? String, let known = AuthMethod(rawValue: name) else {
                throw ConfigError(
                    field: "\(field)[\(index)]", problem: "must be one of \(EmulatorConfig.knownAuthMethods.joined(separator: ", "))")
            }
            if !list.contains(known) { list.append(known) }
        }
        return list
    }

    private static func optionalBool(_ fields: JSONFields, _ key: String, field: String, default value: Bool) throws -> Bool {
        guard fields.has(key) else { return value }
        guard let flag = fields.bool(key) else { throw ConfigError(field: "\(field).\(key)", problem: "must be true or false") }
        return flag
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
