import CGLibSupport
import FoundationEssentials
import Synchronization

/// Connects Swift concurrency to the GLib main loop.
///
/// GLib objects (SoupSession, libsecret calls, GIO launches) live on the global default main
/// context; the platform layer hops there with `invoke` and resumes Swift continuations from
/// GLib callbacks. Something must iterate that context: the app's `g_application_run`, the CLI's
/// `MainLoopBridge.run`, the emulator's loop, or a test's loop thread.
public enum MainLoopBridge {
    /// Makes MainActor tasks and `DispatchQueue.main` run while a GLib main loop spins on the main thread.
    public static func attach() { glib_support_attach_dispatch_main_queue() }

    /// Runs `body` on the thread that owns the global default main context: at once when the caller
    /// owns it (or nobody does), otherwise as soon as that context's loop gets to it.
    public static func invoke(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(InvokeBox(body)).toOpaque()
        glib_support_handoff_release(box)
        g_main_context_invoke(
            nil,
            { userData in
                glib_support_handoff_acquire(userData)
                let box = Unmanaged<InvokeBox>.fromOpaque(userData!).takeRetainedValue()
                box.body()
                return gboolean(0) // G_SOURCE_REMOVE
            }, box)
    }

    /// Runs `body` on the main context (as `invoke`) and hands what it returns, or throws, back to the
    /// awaiting task on whichever thread that resumes. The way back is annotated for ThreadSanitizer
    /// too: what `body` wrote is then seen as written before the task reads it.
    public static func value<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let box = HandBackBox<T>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            invoke {
                box.set(Result { try body() })
                glib_support_handoff_release(Unmanaged.passUnretained(box).toOpaque())
                continuation.resume()
            }
        }
        glib_support_handoff_acquire(Unmanaged.passUnretained(box).toOpaque())
        return try box.get()
    }

    /// Spins a GLib main loop on the calling thread (the process's main thread) until `body`,
    /// started as a MainActor task, finishes; returns its result or rethrows its error.
    /// This is how the CLI runs an async command on GLib's main context.
    public static func run<T: Sendable>(_ body: @escaping @MainActor () async throws -> T) throws -> T {
        precondition(glib_support_is_main_thread() != 0, "MainLoopBridge.run must be called on the main thread")
        attach()
        let loop = MainContextPointer(g_main_loop_new(nil, 0)!)
        defer { g_main_loop_unref(loop.pointer) }
        let outcome = OutcomeBox<T>()
        Task { @MainActor in
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.set(result)
            g_main_loop_quit(loop.pointer)
        }
        g_main_loop_run(loop.pointer)
        return try outcome.get()
    }
}

private final class InvokeBox {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// The result of `run`'s task, written on the main thread and read there after the loop quits.
private final class OutcomeBox<T: Sendable>: Sendable {
    private let result = Mutex<Result<T, any Error>?>(nil)
    func set(_ value: Result<T, any Error>) { result.withLock { $0 = value } }
    func get() throws -> T { try result.withLock { $0 }!.get() }
}

/// What `value`'s body made, from the main context to the awaiting task.
private final class HandBackBox<T: Sendable>: Sendable {
    private let result = Mutex<Result<T, any Error>?>(nil)
    func set(_ value: Result<T, any Error>) { result.withLock { $0 = value } }
    func get() throws -> T { try result.withLock { $0 }!.get() }
}
