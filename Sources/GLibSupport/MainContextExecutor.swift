/// A task executor whose jobs run on the thread that iterates the global default main context:
/// each job is queued there (`MainLoopBridge.queue`, an idle source at default priority), so jobs
/// run in the order they were enqueued and after whatever was queued on the context before them.
/// Never runs a job inside `enqueue`, even on that thread. See `MainLoopBridge.mainContextExecutor`.
public final class MainContextExecutor: TaskExecutor, Sendable {
    init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        MainLoopBridge.queue { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
