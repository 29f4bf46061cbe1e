import FoundationEssentials
import AuthPlatform
import TurnkeyAuth

/// What `portal-auth turnkey …` asked for.
struct TurnkeyInvocation {
    enum Command {
        case help
        case providers
        case loginURL(provider: TurnkeyProvider, clientId: String?, additionalState: [String: String])
        case handleRedirect(urls: [String], oidcOnly: Bool)
        case completeOAuth(oidcToken: String, publicKey: String, providerName: String?)
        case session
        case sessions
        case whoami
        case refresh
        case signOut
    }

    /// Configuration flags by `TurnkeyConfiguration.resolve` key (`auth-proxy-url`, `session-key`, …).
    var flags: [String: String] = [:]
    var command: Command
}

enum TurnkeyArguments {
    static let configurationOptions: Set<String> = ["auth-proxy-url", "auth-proxy-config-id", "api-url", "organization-id", "ca-file",
                                                    EmulatorChoice.flag]
    /// Options that take a value, and the commands each belongs to (nil: every command).
    static let valueOptions: [String: Set<String>?] = [
        "auth-proxy-url": nil, "auth-proxy-config-id": nil, "api-url": nil, "organization-id": nil, "ca-file": nil, "emulator": nil,
        "session-key": ["handle-redirect", "complete-oauth", "session", "whoami", "refresh", "sign-out"],
        "client-id": ["login-url"], "state": ["login-url"],
        "oidc-token": ["complete-oauth"], "public-key": ["complete-oauth"], "provider-name": ["complete-oauth"],
    ]
    static let flagOptions: [String: Set<String>] = ["oidc-only": ["handle-redirect"]]

    /// `arguments` are those after `turnkey`. Options may come before or after the command, as
    /// `--name value` or `--name=value`; `--state` may be repeated.
    static func parse(_ arguments: [String]) throws -> TurnkeyInvocation {
        var values: [String: String] = [:]
        var states: [String] = []
        var switches: Set<String> = []
        var positional: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" { return TurnkeyInvocation(command: .help) }
            if argument == "--" {
                positional += arguments[index...]
                break
            }
            guard argument.hasPrefix("--") else {
                positional.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if name == EmulatorChoice.flag {
                values[name] = try Arguments.emulatorHost(value)
                continue
            }
            if flagOptions[name] != nil {
                guard value == nil else { throw ErrorReport.usage("--\(name) takes no value.") }
                switches.insert(name)
                continue
            }
            guard valueOptions[name] != nil else {
                throw ErrorReport.usage("Unknown option \(Arguments.quoted("--" + name)). Run portal-auth turnkey --help for the list.")
            }
            if value == nil {
                guard index < arguments.count else { throw ErrorReport.usage("--\(name) needs a value.") }
                value = arguments[index]
                index += 1
            }
            // A value given but blank is a mistake, not "unset": it must not quietly fall back to a default.
            guard let given = value, !given.isBlank else { throw ErrorReport.usage("--\(name) needs a value that is not blank.") }
            // Only "-": the token comes on stdin, out of the process list.
            if name == "oidc-token" && given != "-" { throw SecretOnCommandLine.refused(.oidcToken) }
            if name == "state" { states.append(given) } else { values[name] = given }
        }

        guard let name = positional.first else {
            throw ErrorReport.usage("No Turnkey command given. Run portal-auth turnkey --help for the list.")
        }
        let used = Set(values.keys).union(switches).union(states.isEmpty ? [] : ["state"])
        for option in used {
            let belongs = valueOptions[option].map { $0?.contains(name) ?? true } ?? flagOptions[option]?.contains(name) ?? false
            guard belongs else { throw ErrorReport.usage("--\(option) does not belong to \(Arguments.quoted(name)).") }
        }
        var invocation = TurnkeyInvocation(command: .help)
        invocation.flags = values.filter { configurationOptions.contains($0.key) || $0.key == "session-key" }
        invocation.command = try command(name, Array(positional.dropFirst()), values: values, states: states, switches: switches)
        return invocation
    }

    private static func command(_ name: String, _ rest: [String], values: [String: String], states: [String],
                                switches: Set<String>) throws -> TurnkeyInvocation.Command {
        switch name {
        case "help":
            return .help
        case "providers":
            try expectNone(rest, name)
            return .providers
        case "login-url":
            guard rest.count == 1, let provider = TurnkeyProvider(rawValue: rest[0].lowercased()) else {
                throw ErrorReport.usage("login-url takes one provider: google, apple, discord or x.")
            }
            return .loginURL(provider: provider, clientId: values["client-id"], additionalState: try additionalState(states))
        case "handle-redirect":
            guard !rest.isEmpty else { throw ErrorReport.usage("handle-redirect needs -, to read the redirect URL from stdin.") }
            // Only "-": the redirects come on stdin, one per line, so no token or code shows in the process list.
            guard rest == ["-"] else { throw SecretOnCommandLine.refused(.turnkeyRedirectURL) }
            let urls = StandardInput.lines()
            guard !urls.isEmpty else { throw ErrorReport.usage("handle-redirect - read no URL from stdin.") }
            return .handleRedirect(urls: urls, oidcOnly: switches.contains("oidc-only"))
        case "complete-oauth":
            try expectNone(rest, name)
            guard let tokenOption = values["oidc-token"], let publicKey = values["public-key"] else {
                throw ErrorReport.usage("complete-oauth needs --oidc-token - (the token on stdin) and --public-key HEX.")
            }
            guard tokenOption == "-", let token = StandardInput.line(), !token.isEmpty else {
                throw ErrorReport.usage("complete-oauth --oidc-token - read no token from stdin.")
            }
            return .completeOAuth(oidcToken: token, publicKey: publicKey, providerName: values["provider-name"])
        case "session":
            try expectNone(rest, name)
            return .session
        case "sessions":
            try expectNone(rest, name)
            return .sessions
        case "whoami":
            try expectNone(rest, name)
            return .whoami
        case "refresh":
            try expectNone(rest, name)
            return .refresh
        case "sign-out":
            try expectNone(rest, name)
            return .signOut
        default:
            throw ErrorReport.usage("Unknown Turnkey command \(Arguments.quoted(name)). Run portal-auth turnkey --help for the list.")
        }
    }

    /// `KEY=VALUE` pairs; the last of a repeated key wins.
    private static func additionalState(_ pairs: [String]) throws -> [String: String] {
        var result: [String: String] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw ErrorReport.usage("--state takes KEY=VALUE.")
            }
            result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        return result
    }

    private static func expectNone(_ rest: [String], _ command: String) throws {
        guard rest.isEmpty else {
            throw ErrorReport.usage("\(command) takes no arguments. Run portal-auth turnkey --help for the usage.")
        }
    }
}
