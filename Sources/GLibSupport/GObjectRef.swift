import CGLibSupport

/// Owns one reference to a GObject for as long as this Swift object lives, on the main actor (the
/// thread GTK runs on). The wrapper holds a reference of its own: a fresh widget's floating
/// reference is sunk into it, any other object gets one more reference (a caller that created one
/// drops its own). The wrapper's signal connections are disconnected before that reference is dropped.
/// One wrapper per object: the wrapper marks its object, and wrapping it twice is a programming error.
@MainActor
open class GObjectRef {
    public let object: UnsafeMutableRawPointer
    private var connections: [SignalConnection] = []

    nonisolated private static let wrapperMark = g_quark_from_static_string("glib-support-wrapper")

    public init(adopting object: UnsafeMutableRawPointer) {
        precondition(
            g_object_get_qdata(object.assumingMemoryBound(to: GObject.self), GObjectRef.wrapperMark) == nil,
            "a GObject gets one Swift wrapper")
        self.object = object
        g_object_ref_sink(object)
        g_object_set_qdata(
            object.assumingMemoryBound(to: GObject.self), GObjectRef.wrapperMark,
            Unmanaged.passUnretained(self).toOpaque())
    }

    /// Runs on the main actor, wherever the last reference was dropped.
    isolated deinit {
        for connection in connections { connection.disconnect() }
        g_object_set_qdata(object.assumingMemoryBound(to: GObject.self), GObjectRef.wrapperMark, nil)
        g_object_unref(object)
    }

    /// Connects `handler` to `signal` for this wrapper's lifetime (or until the returned connection is disconnected).
    /// The handler gets the emission's extra arguments; its result fills a boolean return (e.g. "handled").
    /// The object must emit on the main thread, as GTK does.
    @discardableResult
    public func connect(
        _ signal: SignalName, after: Bool = false,
        _ handler: @escaping @MainActor (SignalArguments) -> Bool
    ) -> SignalConnection {
        let connection = SignalConnection(instance: object, signal: signal, after: after) { arguments in
            MainActor.assumeIsolated { handler(arguments) }
        }
        connections.append(connection)
        return connection
    }

    /// Connects a handler that needs no arguments and returns nothing.
    @discardableResult
    public func connect(_ signal: SignalName, _ handler: @escaping @MainActor () -> Void) -> SignalConnection {
        connect(signal, after: false) { _ in
            handler()
            return false
        }
    }
}
