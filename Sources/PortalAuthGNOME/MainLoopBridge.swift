import CPortalShim
import Foundation

/// Connects Swift concurrency to the GLib main loop.
///
/// GLib objects (SoupSession, GCancellable callbacks, GIO launches) live on the global default main
/// context; everything in this module hops there with `invoke` and resumes Swift continuations from
/// GLib callbacks. Something must iterate that context: the app's `g_application_run`, the CLI's
/// `MainLoopBridge.run`, or a test's loop thread.
public enum MainLoopBridge {
    /// Makes MainActor tasks and `DispatchQueue.main` run while a GLib main loop spins on the main thread.
    public static func attach() { portal_shim_attach_dispatch_main_queue() }

    /// Runs `body` on the thread that owns the global default main context: at once when the caller
    /// owns it (or nobody does), otherwise as soon as that context's loop gets to it.
    public static func invoke(_ body: @escaping () -> Void) {
        let box = Unmanaged.passRetained(InvokeBox(body)).toOpaque()
        g_main_context_invoke(nil, { userData in
            let box = Unmanaged<InvokeBox>.fromOpaque(userData!).takeRetainedValue()
            box.body()
            return gboolean(0) // G_SOURCE_REMOVE
        }, box)
    }

    /// Spins a GLib main loop on the calling thread (the process's main thread) until `body`,
    /// started as a MainActor task, finishes; returns its result or rethrows its error.
    /// This is how the CLI runs an async command on GLib's main context.
    public static func run<T>(_ body: @escaping @MainActor () async throws -> T) throws -> T {
        precondition(Thread.isMainThread, "MainLoopBridge.run must be called on the main thread")
        attach()
        let loop = g_main_loop_new(nil, 0)!
        defer { g_main_loop_unref(loop) }
        let outcome = OutcomeBox<T>()
        Task { @MainActor in
            do { outcome.result = .success(try await body()) } catch { outcome.result = .failure(error) }
            g_main_loop_quit(loop)
        }
        g_main_loop_run(loop)
        return try outcome.result!.get()
    }
}

private final class InvokeBox {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

private final class OutcomeBox<T> {
    var result: Result<T, Error>?
}
