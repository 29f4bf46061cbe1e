import PortalAuthGNOME

/// What a command line asked for: the help, the version, or a command with its configuration flags and its job.
enum Invocation<Core: BackendCore> {
    case help
    case version
    case run(Command<Core>, flags: [String: String], job: Job<Core>)
}

extension CommandBackend {
    /// Options may come before or after the command, as `--name value` or `--name=value`; `--`
    /// ends them. `arguments` are those after the backend's name.
    func parse(_ arguments: [String]) throws -> Invocation<Core> {
        let known = Dictionary((sharedOptions + commands.flatMap(\.options)).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var values: [String: String] = [:]
        var repeated: [String: [String]] = [:]
        var switches: Set<String> = []
        var positional: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" { return .help }
            if argument == "--version" { return .version }
            if optionWords.contains(argument) {
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
            if name == Setting.emulator.flag {
                values[name] = try Self.emulatorHost(value)
                continue
            }
            guard let option = known[name] else {
                throw ErrorReport.usage("Unknown option \(Self.quoted("--" + name)). Run \(program) --help for the list.")
            }
            if case .switch = option.kind {
                guard value == nil else { throw ErrorReport.usage("--\(name) takes no value.") }
                switches.insert(name)
                continue
            }
            if value == nil {
                guard index < arguments.count else { throw ErrorReport.usage("--\(name) needs a value.") }
                value = arguments[index]
                index += 1
            }
            // A value given but blank is a mistake, not "unset": it must not quietly fall back to a default.
            guard let given = value, !given.isBlank else {
                throw option.blankRefusal ?? ErrorReport.usage("--\(name) needs a value that is not blank.")
            }
            if let secret = option.secret, given != "-" { throw SecretOnCommandLine.refused(secret) }
            if case .repeated = option.kind { repeated[name, default: []].append(given) } else { values[name] = given }
        }
        return try invocation(positional, values: values, repeated: repeated, switches: switches, known: known)
    }

    private func invocation(
        _ positional: [String], values: [String: String], repeated: [String: [String]],
        switches: Set<String>, known: [String: Option]
    ) throws -> Invocation<Core> {
        guard let name = positional.first else {
            throw ErrorReport.usage("No \(commandNoun) given. Run \(program) --help for the list.")
        }
        let command = commands.first { $0.name == name }
        let shared = Set(sharedOptions.map(\.name) + [Setting.emulator.flag].compactMap { $0 })
        for option in Set(values.keys).union(repeated.keys).union(switches).subtracting(shared).sorted()
        where command?.options.contains(where: { $0.name == option }) != true {
            throw ErrorReport.usage(misplaced(option, Self.quoted(name)))
        }
        if name == "help" { return .help }
        guard let command else {
            throw ErrorReport.usage("Unknown \(commandNoun) \(Self.quoted(name)). Run \(program) --help for the list.")
        }
        let flags = values.filter { $0.key == Setting.emulator.flag || known[$0.key]?.configures == true }
        let given = Given(
            command: name, program: program, words: Array(positional.dropFirst()), values: values,
            repeated: repeated, switches: switches)
        return .run(command, flags: flags, job: try command.read(given))
    }

    /// `--emulator` alone: the default host; `--emulator=HOST:PORT`: that one. The value never comes
    /// from the next argument, which may be the command.
    private static func emulatorHost(_ value: String?) throws -> String {
        guard let value else { return EmulatorChoice.defaultHost }
        guard !value.trimmed.isEmpty else {
            throw ErrorReport.usage("--emulator= needs HOST:PORT, or give --emulator alone for \(EmulatorChoice.defaultHost).")
        }
        return value
    }

    /// An unknown word repeated back only if it looks like one: a redirect URL pasted without its
    /// command carries a grant, and a usage error must not print it.
    static func quoted(_ word: String) -> String {
        let looksLikeAWord = word.count <= 40 && word.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "-") }
        return looksLikeAWord ? word : "(not shown)"
    }
}
