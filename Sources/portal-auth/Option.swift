import PortalAuthGNOME

/// An option of a command line: `--name value` or `--name=value`, or a switch given alone.
struct Option: Sendable {
    enum Kind: Sendable {
        /// Takes a value; the last one given wins.
        case value
        /// Takes a value and may be given again; every value is kept, in order.
        case repeated
        /// Takes no value.
        case `switch`
    }

    let name: String
    var kind = Kind.value
    /// Feeds the backend's configuration: among the flags its `resolve` reads.
    var configures = false
    /// A secret: only `-` (the value comes on stdin) is taken, anything else refused unread.
    var secret: SecretOnCommandLine.Kind?
    /// How a blank value is refused where the core has its own words for it (else a usage error).
    var blankRefusal: (any Error)?
}

extension Option {
    /// A flag of the settings table: it feeds the backend's configuration under the table's name.
    init(_ setting: Setting, blankRefusal: (any Error)? = nil) {
        // Only rows with a flag come here (`Setting.readByCLI`, filtered on `flag`).
        self.init(name: setting.flag ?? "", configures: true, blankRefusal: blankRefusal)
    }

    /// The table's flags for `backend`'s commands, besides `--emulator` (which the parser reads
    /// itself, since its value is optional) and those in `except` (a command's own option).
    static func configuring(_ backend: Setting.Serves, except: [Setting] = []) -> [Setting] {
        Setting.readByCLI(serving: backend).filter { $0.flag != nil && $0 != .emulator && !except.contains($0) }
    }
}
