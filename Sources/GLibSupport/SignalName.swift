/// A GObject signal's name, spelled once: call sites connect `.clicked` or `.notify(.active)`, never
/// a string. Each layer declares the signals of the object kinds it uses, in an extension beside
/// them (GIO's here, libsoup's in PortalAuthGNOME, GTK's in SignInApp); GLib still refuses an unknown
/// name at connection time (`SignalConnection`'s precondition), so a misspelt declaration fails at once.
public struct SignalName: Hashable, Sendable, CustomStringConvertible {
    public let name: String

    /// For declaring a kind's signals; a call site uses the declared ones.
    public init(_ name: String) { self.name = name }

    /// `notify::property`: the object's `property` changed.
    public static func notify(_ property: PropertyName) -> SignalName { SignalName("notify::\(property.name)") }

    public var description: String { name }
}

/// A GObject property's name, for `SignalName.notify`; declared like signals, beside the kinds that have it.
public struct PropertyName: Hashable, Sendable {
    public let name: String
    public init(_ name: String) { self.name = name }
}

// The signals and properties of the GLib and GIO kinds the layers connect to.

extension SignalName {
    // GApplication: the primary instance starts (before `activate` or `open`); activation without
    // files (GtkEntry's Enter has the same name); activation with files or URIs (arguments: the
    // `GFile` array and its count)
    public static let startup = SignalName("startup")
    public static let activate = SignalName("activate")
    public static let open = SignalName("open")

    // GCancellable
    public static let cancelled = SignalName("cancelled")
}

extension PropertyName {
    // GAction
    public static let enabled = PropertyName("enabled")
}
