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
        g_main_context_invoke(nil, runBox, InvokeBox.pass(body))
    }

    /// Runs `body` on the main context's next iteration, after whatever is queued there already.
    static func queue(_ body: @escaping @Sendable () -> Void) {
        g_idle_add_full(G_PRIORITY_DEFAULT, runBox, InvokeBox.pass(body), nil)
    }

    private static let runBox: GSourceFunc = { userData in
        glib_support_handoff_acquire(userData)
        let box = Unmanaged<InvokeBox>.fromOpaque(userData!).takeRetainedValue()
        box.body()
        return gboolean(0) // G_SOURCE_REMOVE
    }

    /// Runs `body` on the main context and hands what it returns, or throws, back to the awaiting task
    /// on whichever thread that resumes. The way back is annotated for ThreadSanitizer too: what `body`
    /// wrote is then seen as written before the task reads it.
    ///
    /// `body` runs after everything queued on the context before it, also when the caller is on the
    /// context's own thread (a task under `mainContextExecutor`): what another thread handed to
    /// `invoke` first, such as a cancelled wait's end, is done when `body` looks.
    public static func value<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let box = HandBackBox<T>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let work: @Sendable () -> Void = {
                box.set(Result { try body() })
                glib_support_handoff_release(Unmanaged.passUnretained(box).toOpaque())
                continuation.resume()
            }
            if g_main_context_is_owner(nil) != 0 { queue(work) } else { invoke(work) }
        }
        glib_support_handoff_acquire(Unmanaged.passUnretained(box).toOpaque())
        return try box.get()
    }

    /// Runs the tasks that prefer it (`withTaskExecutorPreference`) on the thread that iterates the
    /// global default main context, one job after another in the order they were enqueued. The CLI
    /// runs its whole command under it: libsoup and libsecret answer on that thread anyway, and a hop to
    /// a worker thread and back per await cost more than the work (docs/PERFORMANCE.md).
    public static let mainContextExecutor = MainContextExecutor()

    /// Spins a GLib main loop on the calling thread (the process's main thread) until `body`,
    /// a MainActor function, finishes; returns its result or rethrows its error.
    /// This is how the CLI runs an async command on GLib's main context: the task prefers
    /// `mainContextExecutor`, so what it awaits runs on this thread too, not on a worker.
    public static func run<T: Sendable>(_ body: @escaping @MainActor () async throws -> T) throws -> T {
        precondition(glib_support_is_main_thread() != 0, "MainLoopBridge.run must be called on the main thread")
        attach()
        let loop = MainContextPointer(g_main_loop_new(nil, 0)!)
        defer { g_main_loop_unref(loop.pointer) }
        let outcome = OutcomeBox<T>()
        Task(executorPreference: mainContextExecutor) {
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
    private init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    /// A retained box for a GLib callback's user data, published to the thread that will run it.
    static func pass(_ body: @escaping @Sendable () -> Void) -> UnsafeMutableRawPointer {
        let box = Unmanaged.passRetained(InvokeBox(body)).toOpaque()
        glib_support_handoff_release(box)
        return box
    }
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
