import CGLibSupport

/// Whether a GObject still exists, through a GWeakRef (which never dangles).
final class ObjectWatch {
    private let reference = UnsafeMutablePointer<GWeakRef>.allocate(capacity: 1)

    init(_ object: UnsafeMutableRawPointer) {
        reference.initialize(to: GWeakRef())
        g_weak_ref_init(reference, object)
    }

    var isAlive: Bool {
        guard let object = g_weak_ref_get(reference) else { return false }
        g_object_unref(object)
        return true
    }

    deinit {
        g_weak_ref_clear(reference)
        reference.deallocate()
    }
}

/// A GIOStream over memory, for signals that take one.
final class MemoryStream {
    let stream: UnsafeMutablePointer<GIOStream>
    private let input = g_memory_input_stream_new()!
    private let output = g_memory_output_stream_new_resizable()!

    init() { stream = g_simple_io_stream_new(input, output)! }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(stream))
        g_object_unref(UnsafeMutableRawPointer(input))
        g_object_unref(UnsafeMutableRawPointer(output))
    }
}

/// Counts and records what handlers saw.
final class Counter {
    var count = 0
}

final class Recorder<Value> {
    var values: [Value] = []
}
