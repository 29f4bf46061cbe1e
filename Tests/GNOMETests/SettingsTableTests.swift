import AuthTestSupport
import Foundation
import PortalAuthGNOME
import Testing

/// The settings table (`Setting+Table.swift`) is the one place a setting is named: every row is
/// complete, no two rows share a name, and the GSettings schema and docs/CONFIGURATION.md say the same.
@Suite struct SettingsTableTests {
    static let schemaFile = EmulatorLauncher.repository.appendingPathComponent("data/io.github.portalauth.SignIn.gschema.xml")
    static let docsFile = EmulatorLauncher.repository.appendingPathComponent("docs/CONFIGURATION.md")

    @Test func everyRowHasEveryColumn() {
        for setting in Setting.all {
            let name = setting.variable ?? setting.settingsKey ?? setting.summary
            #expect(setting.flag != nil || setting.variable != nil || setting.settingsKey != nil, "\(name): no name at all")
            #expect(!setting.summary.isBlank && !setting.summary.contains("\n"), "\(name): a one-line description")
            #expect(!setting.valueName.isBlank, "\(name): what its value is")
            if case .none(let words) = setting.default { #expect(!words.isBlank, "\(name): what happens without a value") }
            #expect(!setting.readBy.isEmpty, "\(name): nobody reads it")
            #expect(setting.settingsKey == nil || setting.readBy.contains(.app), "\(name): a GSettings key the app does not read")
            #expect(setting.flag == nil || setting.readBy.contains(.cli), "\(name): a flag the CLI does not read")
            #expect(setting.readBy == .app || setting.variable != nil, "\(name): the CLI reads it from no variable")
            if let flag = setting.flag { #expect(flag.allSatisfy { $0.isLowercase || $0 == "-" }, "\(name): flag --\(flag)") }
            for variable in [setting.variable].compactMap({ $0 }) + setting.aliases {
                #expect(variable.hasPrefix("PORTAL_") || variable.hasPrefix("TURNKEY_"), "\(name): variable \(variable)")
                #expect(variable.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" }, "\(name): variable \(variable)")
            }
        }
    }

    @Test func noTwoSettingsShareAName() {
        let variables = Setting.all.flatMap { [$0.variable].compactMap { $0 } + $0.aliases }
        #expect(Set(variables).count == variables.count, "a variable named twice: \(variables.sorted())")
        let keys = Setting.all.compactMap(\.settingsKey)
        #expect(Set(keys).count == keys.count, "a GSettings key named twice: \(keys.sorted())")
        #expect(Set(Setting.all).count == Setting.all.count, "a row listed twice")
        // One flag may name a setting of each backend (--session-key), never two of the same backend.
        for backend in [Setting.Serves.portal, .turnkey] {
            let flags = Setting.readByCLI(serving: backend).compactMap(\.flag)
            #expect(Set(flags).count == flags.count, "\(backend): a flag named twice: \(flags.sorted())")
        }
    }

    @Test func variablesThatServeBothBackendsAreNamedForTheProduct() {
        for setting in Setting.all where setting.serves == .both {
            guard let variable = setting.variable, variable != "PORTAL_SIGN_IN_BACKEND" else { continue } // DESIGN.md's
            #expect(variable.hasPrefix("PORTAL_AUTH_"), "\(variable) serves both backends")
        }
        #expect(Setting.caFile.aliases == ["PORTAL_CA_FILE"])
        #expect(Setting.debug.aliases == ["PORTAL_DEBUG"])
        #expect(Setting.httpTimeoutSeconds.aliases == ["PORTAL_HTTP_TIMEOUT_SECONDS"])
    }

    @Test func theNamesDesignFixesAreKept() {
        let variables = Set(Setting.all.compactMap(\.variable))
        for fixed in [
            "PORTAL_API_HOST", "PORTAL_AUTH_ENVIRONMENT_ID", "PORTAL_REDIRECT_URL", "PORTAL_AUTH_EMULATOR_HOST", "PORTAL_SIGN_IN_BACKEND",
            "TURNKEY_AUTH_PROXY_URL", "TURNKEY_AUTH_PROXY_CONFIG_ID", "TURNKEY_API_URL", "TURNKEY_ORGANIZATION_ID"
        ] {
            #expect(variables.contains(fixed), "\(fixed) is gone")
        }
        let flags = Set(Setting.all.compactMap(\.flag))
        for fixed in ["auth-proxy-url", "auth-proxy-config-id", "api-url", "organization-id", "emulator"] {
            #expect(flags.contains(fixed), "--\(fixed) is gone")
        }
        #expect(Setting.backend.settingsKey == "backend" && Setting.backend.defaultValue == "portal")
        #expect(Setting.apiHost.defaultValue == "api.portalhq.io")
        #expect(Setting.authProxyUrl.defaultValue == "https://authproxy.turnkey.com")
        #expect(Setting.apiUrl.defaultValue == "https://api.turnkey.com")
        #expect(Setting.emulatorHost.defaultValue == "127.0.0.1:8790")
        #expect(UInt32(Setting.httpTimeoutSeconds.defaultValue) == 30, "TransportConfiguration reads it as a number")
    }

    @Test func theSchemaHasEveryKeyOfTheTableAndNoOther() throws {
        let schema = try String(contentsOf: Self.schemaFile, encoding: .utf8)
        let keyPattern = try NSRegularExpression(
            pattern: #"<key name="([^"]+)" type="([^"]+)">.*?<default>([^<]*)</default>"#, options: .dotMatchesLineSeparators)
        var declared: [String: (type: String, default: String)] = [:]
        for match in keyPattern.matches(in: schema, range: NSRange(schema.startIndex..., in: schema)) {
            let field = { (index: Int) in String(schema[Range(match.range(at: index), in: schema)!]) }
            declared[field(1)] = (field(2), field(3))
        }
        #expect(declared.count >= 13, "the schema's keys were not found: \(declared.keys.sorted())")
        let tableKeys = Set(Setting.all.compactMap(\.settingsKey))
        #expect(
            Set(declared.keys) == tableKeys,
            "schema only: \(Set(declared.keys).subtracting(tableKeys).sorted()); table only: \(tableKeys.subtracting(declared.keys).sorted())"
        )
        for setting in Setting.all {
            guard let key = setting.settingsKey, let entry = declared[key] else { continue }
            #expect(entry.type == (setting.kind == .boolean ? "b" : "s"), "\(key) is of type \(entry.type)")
            // A string key's empty default means "the service's default"; any other must be the table's.
            if setting.kind == .text, entry.default != "''" {
                #expect(entry.default == "'\(setting.defaultValue)'", "\(key) defaults to \(entry.default) in the schema")
            }
            if setting.kind == .boolean { #expect(entry.default == "false", "\(key): off must mean not set") }
        }
    }

    @Test func theDocsListEverySettingAsTheTableHasIt() throws {
        let docs = try String(contentsOf: Self.docsFile, encoding: .utf8)
        let table = Self.markdownTable()
        #expect(docs.contains(table), "docs/CONFIGURATION.md's table differs from the settings table; it should read:\n\(table)")
        for setting in Setting.all {
            for name in [setting.flag.map { "--" + $0 }, setting.variable, setting.settingsKey].compactMap({ $0 }) + setting.aliases {
                #expect(docs.contains(name), "docs/CONFIGURATION.md does not name \(name)")
            }
        }
    }

    /// docs/CONFIGURATION.md's table, as the settings table gives it.
    static func markdownTable() -> String {
        func code(_ text: String?) -> String { text.map { "`\($0)`" } ?? "—" }
        let rows = Setting.all.map { setting in
            let variable =
                code(setting.variable)
                + (setting.aliases.isEmpty ? "" : " (older name: \(setting.aliases.map(code).joined(separator: ", ")))")
            let defaultValue =
                switch setting.default {
                case .value(let value): code(value)
                case .none(let words): words
                }
            let serves = ["portal": "Portal", "turnkey": "Turnkey", "both": "both"][setting.serves.rawValue]!
            let readBy = [(Setting.ReadBy.app, "app"), (.cli, "CLI")].filter { setting.readBy.contains($0.0) }.map(\.1).joined(
                separator: ", ")
            let cells = [code(setting.flagUsage), variable, code(setting.settingsKey), defaultValue, serves, readBy, setting.summary]
            return "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
        }
        return (["| Flag | Variable | GSettings key | Default | For | Read by | What it sets |", "|---|---|---|---|---|---|---|"] + rows)
            .joined(separator: "\n")
    }
}
