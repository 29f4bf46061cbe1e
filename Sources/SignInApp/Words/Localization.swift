import CSignInUI
import FoundationEssentials

/// Translates a message in the "portal-sign-in" gettext domain (xgettext --keyword=tr).
/// gettext returns the msgid's own pointer when there is no translation, so the result is read
/// while that pointer is still alive.
func tr(_ message: String) -> String {
    message.withCString { String(cString: portal_ui_gettext($0)) }
}

/// Translates a message with a plural form (xgettext --keyword=trn:1,2).
func trn(_ singular: String, _ plural: String, _ count: Int) -> String {
    singular.withCString { one in
        plural.withCString { many in String(cString: portal_ui_ngettext(one, many, UInt(max(count, 0)))) }
    }
}

/// Puts `values` into a translated message's `%s` placeholders, in order.
func fill(_ message: String, _ values: String...) -> String {
    let pieces = message.split(separator: "%s", omittingEmptySubsequences: false)
    var result = String(pieces[0])
    for (index, piece) in pieces.dropFirst().enumerated() {
        result += (index < values.count ? values[index] : "%s") + piece
    }
    return result
}

enum Localization {
    /// Binds the domain to `<exe>/../share/locale` when the app is installed there.
    static func setUp() {
        let localeDirectory = AppPaths.installedShare.appendingPathComponent("locale").path
        let exists = FileManager.default.fileExists(atPath: localeDirectory)
        portal_ui_i18n_init(exists ? localeDirectory : nil)
    }
}
