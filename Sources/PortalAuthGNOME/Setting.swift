import AuthBase

/// One setting of Portal Sign-In with every name it goes by: the CLI's flag, the environment
/// variable (and older names still accepted), the app's GSettings key (schema
/// io.github.portalauth.SignIn), its default, whom it serves and what it is for. The rows are in
/// `Setting+Table.swift`; the resolvers, the CLI's options and help, Preferences and
/// docs/CONFIGURATION.md all read them, so a name is written once.
package struct Setting: Sendable, Hashable {
    /// Which backend's sign-in it changes.
    package enum Serves: String, Sendable, Hashable {
        case portal, turnkey, both
    }

    /// Which programs read it.
    package struct ReadBy: OptionSet, Sendable, Hashable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }
        /// The app `portal-sign-in`: environment and GSettings.
        package static let app = ReadBy(rawValue: 1)
        /// The command-line client `portal-auth`: flags and environment.
        package static let cli = ReadBy(rawValue: 2)
    }

    /// The GSettings type of its key: a string (`s`) or a switch (`b`).
    package enum Kind: Sendable, Hashable {
        case text, boolean
    }

    /// What is used when no source gives a value.
    package enum Default: Sendable, Hashable, ExpressibleByStringLiteral {
        case value(String)
        /// No value; the words say what happens then: `off`, `none, required`.
        case none(String)

        package init(stringLiteral value: String) { self = .value(value) }
    }

    /// Without its `--`.
    package let flag: String?
    package let variable: String?
    /// Older variable names, still read after `variable` (which wins when both are set).
    package let aliases: [String]
    package let settingsKey: String?
    package let kind: Kind
    /// What its value is, as the help and the docs write it: `HOST`, `URL`, `ID`.
    package let valueName: String
    package let `default`: Default
    package let serves: Serves
    package let readBy: ReadBy
    /// One line, for `--help` and the docs.
    package let summary: String

    init(
        flag: String? = nil, variable: String? = nil, aliases: [String] = [], settingsKey: String? = nil,
        kind: Kind = .text, valueName: String, default: Default, serves: Serves, readBy: ReadBy = [.app, .cli],
        summary: String
    ) {
        self.flag = flag
        self.variable = variable
        self.aliases = aliases
        self.settingsKey = settingsKey
        self.kind = kind
        self.valueName = valueName
        self.default = `default`
        self.serves = serves
        self.readBy = readBy
        self.summary = summary
    }

    /// The flag as a command line gives it: `--api-host HOST`; `--emulator[=HOST:PORT]`, whose value
    /// never comes from the next argument.
    package var flagUsage: String? {
        flag.map { self == .emulator ? "--\($0)[=\(valueName)]" : "--\($0) \(valueName)" }
    }

    /// The default as the help writes it: `default api.portalhq.io`, `default "default"` (a word
    /// alone is quoted, so it does not read as part of the sentence), `default: off`.
    package var defaultWords: String {
        switch self.default {
        case .value(let value) where value.allSatisfy(\.isLetter): "default \"\(value)\""
        case .value(let value): "default \(value)"
        case .none(let words): "default: \(words)"
        }
    }

    /// The settings the CLI reads for `backend` (`.portal` or `.turnkey`), in the table's order.
    package static func readByCLI(serving backend: Serves) -> [Setting] {
        all.filter { $0.readBy.contains(.cli) && ($0.serves == backend || $0.serves == .both) }
    }

    /// The default's value, or "" when it has none.
    package var defaultValue: String {
        if case .value(let value) = self.default { value } else { "" }
    }

    /// Every non-blank value given, highest first, each trimmed and with the name it was given
    /// under: the flag, the variable, its aliases, then the GSettings key (a switch only when on,
    /// since off is GSettings' default and means "not set").
    package func givenValues(
        flags: [String: String], environment: [String: String], settings: [String: String]
    ) -> [(source: String, value: String)] {
        var sources: [(String, String?)] = []
        if let flag { sources.append(("--" + flag, flags[flag])) }
        for name in [variable].compactMap({ $0 }) + aliases { sources.append((name, environment[name])) }
        if let settingsKey {
            let stored = settings[settingsKey]
            sources.append((settingsKey, kind == .boolean && stored?.trimmed.lowercased() != "true" ? nil : stored))
        }
        return sources.compactMap { source, value in value?.nonBlank.map { (source, $0) } }
    }

    /// The value of the highest source that gives one (flags, then environment, then GSettings),
    /// or nil: then the caller's default applies (the emulator's, when it was chosen, or `default`).
    package func value(flags: [String: String], environment: [String: String], settings: [String: String]) -> String? {
        givenValues(flags: flags, environment: environment, settings: settings).first?.value
    }

    /// The value from the environment alone: the variable, then its aliases.
    package func value(environment: [String: String]) -> String? {
        value(flags: [:], environment: environment, settings: [:])
    }
}
