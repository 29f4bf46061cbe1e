import CGLibSupport

/// The extra arguments of one signal emission (the emitting instance is not among them).
/// Valid only during the emission, on the thread that emits: the pointer never leaves it,
/// which the compiler cannot see.
public struct SignalArguments: @unchecked Sendable {
    let values: UnsafePointer<GValue>?
    let count: Int

    /// An object, pointer, boxed, param or string argument; nil for any other kind.
    public func pointer(_ index: Int) -> UnsafeMutableRawPointer? {
        guard let values, index < count else { return nil }
        return glib_support_value_pointer(values, guint(index))
    }
    /// A uint, int, enum or flags argument; 0 for any other kind.
    public func uint(_ index: Int) -> UInt32 {
        guard let values, index < count else { return 0 }
        return glib_support_value_uint(values, guint(index))
    }
}

/// Holds the Swift handler while GLib holds the closure; GLib's destroy notify releases it.
private final class SignalBox {
    let handler: (SignalArguments) -> Bool
    init(_ handler: @escaping (SignalArguments) -> Bool) { self.handler = handler }
}

private let signalTrampoline: GLibSupportSignalHandler = { box, _, args, count in
    let signalBox = Unmanaged<SignalBox>.fromOpaque(box!).takeUnretainedValue()
    return signalBox.handler(SignalArguments(values: args, count: Int(count))) ? 1 : 0
}

private let releaseSignalBox: GDestroyNotify = { box in
    Unmanaged<SignalBox>.fromOpaque(box!).release()
}

/// One connected handler, run on the thread that emits the signal (for GTK and libsoup, the main
/// context's). It stays connected until `disconnect()` or until the object is finalized; dropping
/// this value does not disconnect it. `disconnect()` is idempotent and safe after the object is gone
/// (the connection watches the object through a GWeakRef, never a dangling pointer).
public final class SignalConnection {
    private let weakInstance: UnsafeMutablePointer<GWeakRef>
    private var handlerId: gulong

    /// Connects `handler` to `signal` of the GObject `instance`. Its result fills a boolean return
    /// value (e.g. "handled") and is ignored for other signals.
    public init(
        instance: UnsafeMutableRawPointer, signal: SignalName, after: Bool = false,
        handler: @escaping (SignalArguments) -> Bool
    ) {
        weakInstance = .allocate(capacity: 1)
        weakInstance.initialize(to: GWeakRef())
        g_weak_ref_init(weakInstance, instance)
        let box = Unmanaged.passRetained(SignalBox(handler)).toOpaque()
        handlerId = glib_support_signal_connect(instance, signal.name, signalTrampoline, box, releaseSignalBox, after ? 1 : 0)
        precondition(handlerId != 0, "unknown signal \(signal)")
    }

    public func disconnect() {
        guard handlerId != 0 else { return }
        if let instance = g_weak_ref_get(weakInstance) {
            glib_support_signal_disconnect(instance, handlerId)
            g_object_unref(instance)
        }
        handlerId = 0
    }

    deinit {
        g_weak_ref_clear(weakInstance)
        weakInstance.deallocate()
    }
}
