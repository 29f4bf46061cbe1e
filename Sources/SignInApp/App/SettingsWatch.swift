import CSignInUI
import GLibSupport

/// Watches the app's GSettings keys while the app runs, so a change made in Preferences (or by any
/// other program) reaches the window at once. Keys that change together (Reset empties a group)
/// arrive as one call, on the main loop's next turn.
@MainActor
final class SettingsWatch {
    private let settings: GObjectRef
    private var pending = false

    /// Nil when the schema is not installed (nothing can change then).
    init?(_ changed: @escaping @MainActor () -> Void) {
        guard PreferencesWindow.schemaInstalled, let created = g_settings_new(SettingsLocation.schemaId) else { return nil }
        settings = GObjectRef(adopting: created.gpointer)
        g_object_unref(created.gpointer)
        settings.connect(.changed) { [weak self] in
            guard let self, !self.pending else { return }
            self.pending = true
            Task { @MainActor [weak self] in
                self?.pending = false
                changed()
            }
        }
    }
}
