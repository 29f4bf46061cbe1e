import FoundationEssentials
import PortalAuth
import AuthPlatform

/// What the command line asked for.
struct Invocation {
    enum Command {
        case help
        case methods
        case loginURL(provider: Provider)
        case signIn(provider: Provider, opensBrowser: Bool)
        case handleRedirect(urls: [String])
        case verifyTotp(code: String, userJwt: String)
        case sendMagicLink(email: String)
        case session
        case client
        case signOut
    }

    enum Provider: String { case google, apple }

    /// Configuration flags by `PortalConfiguration` key (`api-host`, `environment-id`, …).
    var flags: [String: String] = [:]
    var command: Command
}

enum Arguments {
    /// Options that take a value and feed the configuration.
    static let configurationOptions = ["api-host", "environment-id", "redirect-url", "session-key", "ca-file"]
    /// The options that are `PortalAuth`'s arguments, by the names its `invalidArgument` gives them.
    static let coreArgumentNames = ["environment-id": "authEnvironmentId", "redirect-url": "redirectUrl"]

    /// Options may come before or after the command, as `--name value` or `--name=value`.
    static func parse(_ arguments: [String]) throws -> Invocation {
        var flags: [String: String] = [:]
        var userJwt: String?
        var positional: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" { return Invocation(command: .help) }
            if argument == "--open" {   // sign-in's switch, read with its words
                positional.append(argument)
                continue
            }
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
                flags[name] = try emulatorHost(value)
                continue
            }
            guard configurationOptions.contains(name) || name == "user-jwt" else {
                throw ErrorReport.usage("Unknown option \(quoted("--" + name)). Run portal-auth --help for the list.")
            }
            if value == nil {
                guard index < arguments.count else { throw ErrorReport.usage("--\(name) needs a value.") }
                value = arguments[index]
                index += 1
            }
            // A value given but blank is a mistake, not "unset": it must not quietly fall back to a default.
            guard let given = value, !given.trimmed.isEmpty else {
                // The core's own refusal for these two, as PortalAuth(authEnvironmentId:redirectUrl:) makes it.
                if let coreName = coreArgumentNames[name] { throw PortalAuthError.invalidArgument(name: coreName) }
                throw ErrorReport.usage("--\(name) needs a value that is not blank.")
            }
            if name == "user-jwt" {
                // Only "-": read from stdin, so the JWT never shows in the process list.
                guard given == "-" else { throw SecretOnCommandLine.refused(.userJwt) }
                userJwt = StandardInput.line()
            } else {
                flags[name] = given
            }
        }
        return Invocation(flags: flags, command: try command(positional, userJwt: userJwt))
    }

    private static func command(_ words: [String], userJwt: String?) throws -> Invocation.Command {
        guard let name = words.first else {
            throw ErrorReport.usage("No command given. Run portal-auth --help for the list.")
        }
        let rest = Array(words.dropFirst())
        if userJwt != nil && name != "verify-totp" {
            throw ErrorReport.usage("--user-jwt belongs to verify-totp only.")
        }
        switch name {
        case "help":
            return .help
        case "methods":
            try expectCount(rest, 0, name)
            return .methods
        case "login-url":
            try expectCount(rest, 1, name)
            guard let provider = Invocation.Provider(rawValue: rest[0].lowercased()) else {
                throw ErrorReport.usage("login-url takes google or apple.")
            }
            return .loginURL(provider: provider)
        case "sign-in":
            let opensBrowser = rest.contains("--open")
            let words = rest.filter { $0 != "--open" }
            guard words.count == 1, let provider = Invocation.Provider(rawValue: words[0].lowercased()) else {
                throw ErrorReport.usage("sign-in takes google or apple, and --open to open the browser.")
            }
            return .signIn(provider: provider, opensBrowser: opensBrowser)
        case "handle-redirect":
            guard !rest.isEmpty else { throw ErrorReport.usage("handle-redirect needs -, to read the redirect URL from stdin.") }
            // Only "-": the redirects come on stdin, one per line, so no grant shows in the process list.
            guard rest == ["-"] else { throw SecretOnCommandLine.refused(.redirectURL) }
            let urls = StandardInput.lines()
            guard !urls.isEmpty else { throw ErrorReport.usage("handle-redirect - read no URL from stdin.") }
            return .handleRedirect(urls: urls)
        case "verify-totp":
            try expectCount(rest, 1, name)
            guard let userJwt, !userJwt.isEmpty else {
                throw ErrorReport.usage("verify-totp needs --user-jwt with the userJwt from the totpRequired line.")
            }
            return .verifyTotp(code: rest[0], userJwt: userJwt)
        case "send-magic-link":
            try expectCount(rest, 1, name)
            return .sendMagicLink(email: rest[0])
        case "session":
            try expectCount(rest, 0, name)
            return .session
        case "client":
            try expectCount(rest, 0, name)
            return .client
        case "sign-out":
            try expectCount(rest, 0, name)
            return .signOut
        default:
            throw ErrorReport.usage("Unknown command \(quoted(name)). Run portal-auth --help for the list.")
        }
    }

    /// `--emulator` alone: the default host; `--emulator=HOST:PORT`: that one. The value never comes
    /// from the next argument, which may be the command.
    static func emulatorHost(_ value: String?) throws -> String {
        guard let value else { return EmulatorChoice.defaultHost }
        guard !value.trimmed.isEmpty else { throw ErrorReport.usage("--emulator= needs HOST:PORT, or give --emulator alone for \(EmulatorChoice.defaultHost).") }
        return value
    }

    /// An unknown word repeated back only if it looks like one: a redirect URL pasted without its
    /// command carries a grant, and a usage error must not print it.
    static func quoted(_ word: String) -> String {
        let looksLikeAWord = word.count <= 40 && word.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "-") }
        return looksLikeAWord ? word : "(not shown)"
    }

    private static func expectCount(_ rest: [String], _ count: Int, _ command: String) throws {
        guard rest.count == count else {
            throw ErrorReport.usage("\(command) takes \(count == 0 ? "no arguments" : "exactly \(count) argument"). "
                + "Run portal-auth --help for the usage.")
        }
    }
}
