import CGLibSupport

/// A task executor whose jobs run on the thread that iterates the global default main context:
/// each job is an idle source at default priority, so jobs run in the order they were enqueued and
/// after whatever was queued on the context before them. Never runs a job inside `enqueue`, even on
/// that thread. See `MainLoopBridge.mainContextExecutor`.
public final class MainContextExecutor: TaskExecutor, Sendable {
    init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let box = Unmanaged.passRetained(JobBox(UnownedJob(job), executor: self)).toOpaque()
        glib_support_handoff_release(box)
        g_idle_add_full(
            G_PRIORITY_DEFAULT,
            { userData in
                glib_support_handoff_acquire(userData)
                let box = Unmanaged<JobBox>.fromOpaque(userData!).takeRetainedValue()
                box.job.runSynchronously(on: box.executor.asUnownedTaskExecutor())
                return gboolean(0) // G_SOURCE_REMOVE
            }, box, nil)
    }
}

private final class JobBox {
    let job: UnownedJob
    let executor: MainContextExecutor
    init(_ job: UnownedJob, executor: MainContextExecutor) {
        self.job = job
        self.executor = executor
    }
}
