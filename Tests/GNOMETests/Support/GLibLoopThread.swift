import CAuthPlatform
import Foundation

/// Swift Testing runs tests off the main thread, so the tests iterate GLib's global default main
/// context on a thread of their own, as the app's `g_application_run` would.
enum GLibLoopThread {
    private static let started: Void = {
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread {
            loopThread = pthread_self()
            let loop = g_main_loop_new(nil, 0)
            // Signal from inside the running loop: from then on this thread owns the context.
            let box = Unmanaged.passRetained(SemaphoreBox(ready)).toOpaque()
            g_idle_add(
                { userData in
                    Unmanaged<SemaphoreBox>.fromOpaque(userData!).takeRetainedValue().semaphore.signal()
                    return gboolean(0)
                }, box)
            g_main_loop_run(loop)
        }
        thread.name = "glib-main-loop"
        thread.start()
        ready.wait()
    }()

    /// The loop's thread, once `ensureRunning()` returned.
    nonisolated(unsafe) private(set) static var loopThread: pthread_t?

    static func ensureRunning() { _ = started }

    static var isCurrent: Bool { loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
}

private final class SemaphoreBox {
    let semaphore: DispatchSemaphore
    init(_ semaphore: DispatchSemaphore) { self.semaphore = semaphore }
}
