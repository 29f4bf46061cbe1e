import CSignInUI

// Pointer conversions between GObject types: the Swift side of the C cast macros.
// Most are upcasts to a parent struct, which C does with a plain pointer cast too; where the type
// is not known, `portal_ui_is_a` checks it first.

extension UnsafeMutablePointer {
    /// Reinterprets this GObject pointer as another GObject struct type (an upcast or a checked cast).
    func cast<Target>(to _: Target.Type = Target.self) -> UnsafeMutablePointer<Target> {
        UnsafeMutableRawPointer(self).assumingMemoryBound(to: Target.self)
    }
    /// For the GTK types whose structs are private (GtkStack, GtkLabel…), which Swift sees as OpaquePointer.
    func cast() -> OpaquePointer { OpaquePointer(self) }
    var gpointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension OpaquePointer {
    func cast<Target>(to _: Target.Type = Target.self) -> UnsafeMutablePointer<Target> {
        UnsafeMutablePointer<Target>(self)
    }
    var gpointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

/// Owns one reference to a GObject for as long as this Swift object lives.
/// The wrapper holds a reference of its own: a fresh widget's floating reference is sunk into it,
/// any other object gets one more reference (a caller that created one drops its own). The wrapper's
/// signal connections are disconnected before that reference is dropped.
/// One wrapper per object: the wrapper marks its object, and wrapping it twice is a programming error.
@MainActor
class GObjectRef {
    let object: UnsafeMutableRawPointer
    private var connections: [SignalConnection] = []

    nonisolated private static let wrapperMark = g_quark_from_static_string("portal-ui-wrapper")

    init(adopting object: UnsafeMutableRawPointer) {
        precondition(g_object_get_qdata(object.assumingMemoryBound(to: GObject.self), GObjectRef.wrapperMark) == nil,
                     "a GObject gets one Swift wrapper")
        self.object = object
        g_object_ref_sink(object)
        g_object_set_qdata(object.assumingMemoryBound(to: GObject.self), GObjectRef.wrapperMark,
                           Unmanaged.passUnretained(self).toOpaque())
    }

    /// Runs on the main actor (GTK's thread), wherever the last reference was dropped.
    isolated deinit {
        for connection in connections { connection.disconnect() }
        g_object_set_qdata(object.assumingMemoryBound(to: GObject.self), GObjectRef.wrapperMark, nil)
        g_object_unref(object)
    }

    /// Connects `handler` to `signal` for this wrapper's lifetime (or until the returned connection is disconnected).
    /// The handler gets the emission's extra arguments; its result fills a boolean return (e.g. "handled").
    @discardableResult
    func connect(_ signal: String, after: Bool = false,
                 _ handler: @escaping @MainActor (SignalArguments) -> Bool) -> SignalConnection {
        let connection = SignalConnection(instance: object, signal: signal, after: after, handler: handler)
        connections.append(connection)
        return connection
    }

    /// Connects a handler that needs no arguments and returns nothing.
    @discardableResult
    func connect(_ signal: String, _ handler: @escaping @MainActor () -> Void) -> SignalConnection {
        connect(signal, after: false) { _ in handler(); return false }
    }
}
