import CSignInUI

/// The extra arguments of one signal emission (the emitting instance is not among them).
/// Valid only during the emission, which GTK runs on the main thread: the pointer never leaves it,
/// which the compiler cannot see.
struct SignalArguments: @unchecked Sendable {
    let values: UnsafePointer<GValue>?
    let count: Int

    func pointer(_ index: Int) -> UnsafeMutableRawPointer? {
        guard let values, index < count else { return nil }
        return portal_ui_value_pointer(values, guint(index))
    }
    func uint(_ index: Int) -> UInt32 {
        guard let values, index < count else { return 0 }
        return portal_ui_value_uint(values, guint(index))
    }
}

/// Holds the Swift handler while GLib holds the closure; GLib's destroy notify releases it.
private final class SignalBox: Sendable {
    let handler: @MainActor (SignalArguments) -> Bool
    init(_ handler: @escaping @MainActor (SignalArguments) -> Bool) { self.handler = handler }
}

private let signalTrampoline: PortalUISignalHandler = { box, _, args, count in
    let signalBox = Unmanaged<SignalBox>.fromOpaque(box!).takeUnretainedValue()
    let arguments = SignalArguments(values: args, count: Int(count))
    // GTK emits signals on the main thread, which is the main actor's thread.
    let handled = MainActor.assumeIsolated { signalBox.handler(arguments) }
    return handled ? 1 : 0
}

private let releaseSignalBox: GDestroyNotify = { box in
    Unmanaged<SignalBox>.fromOpaque(box!).release()
}

/// One connected handler. `disconnect()` is idempotent and safe after the object is gone
/// (the connection watches the object through a GWeakRef, never a dangling pointer).
final class SignalConnection {
    private let weakInstance: UnsafeMutablePointer<GWeakRef>
    private var handlerId: gulong

    init(instance: UnsafeMutableRawPointer, signal: String, after: Bool,
         handler: @escaping @MainActor (SignalArguments) -> Bool) {
        weakInstance = .allocate(capacity: 1)
        weakInstance.initialize(to: GWeakRef())
        g_weak_ref_init(weakInstance, instance)
        let box = Unmanaged.passRetained(SignalBox(handler)).toOpaque()
        handlerId = portal_ui_signal_connect(instance, signal, signalTrampoline, box, releaseSignalBox, after ? 1 : 0)
        precondition(handlerId != 0, "unknown signal \(signal)")
    }

    func disconnect() {
        guard handlerId != 0 else { return }
        if let instance = g_weak_ref_get(weakInstance) {
            portal_ui_signal_disconnect(instance, handlerId)
            g_object_unref(instance)
        }
        handlerId = 0
    }

    deinit {
        g_weak_ref_clear(weakInstance)
        weakInstance.deallocate()
    }
}
