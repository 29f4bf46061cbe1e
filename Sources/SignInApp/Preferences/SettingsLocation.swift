import CSignInUI
import FoundationEssentials
import PortalAuthGNOME

/// Finds the app's GSettings schema and reads its keys.
enum SettingsLocation {
    static let schemaId = "io.github.portalauth.SignIn"

    /// When the schema is only in `<exe>/../share/glib-2.0/schemas` (a prefix not on XDG_DATA_DIRS),
    /// points GSETTINGS_SCHEMA_DIR there so GSettings finds it.
    static func exportInstalledSchemasIfNeeded() {
        guard lookupSchema() == nil, let directory = AppPaths.installedSchemas else { return }
        let existing = ProcessInfo.processInfo.environment["GSETTINGS_SCHEMA_DIR"]
        let value = existing.map { "\(directory.path):\($0)" } ?? directory.path
        setenv("GSETTINGS_SCHEMA_DIR", value, 1)
    }

    /// The keys of the settings table, by their GSettings type.
    static let stringKeys = Setting.all.filter { $0.kind == .text }.compactMap(\.settingsKey)
    static let booleanKeys = Setting.all.filter { $0.kind == .boolean }.compactMap(\.settingsKey)

    /// The app's string settings (`stringKeys`) and its switches (`booleanKeys`) as "true"/"false";
    /// empty when the schema is not installed (GSettings would abort on a missing schema).
    static func read() -> [String: String] {
        guard let schema = lookupSchema() else { return [:] }
        defer { g_settings_schema_unref(schema) }
        let settings = g_settings_new(schemaId)!
        defer { g_object_unref(settings) }
        var values: [String: String] = [:]
        for key in stringKeys where g_settings_schema_has_key(schema, key) != 0 {
            if let raw = g_settings_get_string(settings, key) {
                values[key] = String(cString: raw)
                g_free(raw)
            }
        }
        for key in booleanKeys where g_settings_schema_has_key(schema, key) != 0 {
            values[key] = g_settings_get_boolean(settings, key) != 0 ? "true" : "false"
        }
        return values
    }

    private static func lookupSchema() -> OpaquePointer? {
        guard let source = g_settings_schema_source_get_default() else { return nil }
        return g_settings_schema_source_lookup(source, schemaId, 1)
    }
}

extension Setting {
    /// Its GSettings key, for a setting the app stores: the table gives every such setting one.
    var gsettingsKey: String {
        guard let settingsKey else { preconditionFailure("\(summary): no GSettings key in the settings table") }
        return settingsKey
    }
}
