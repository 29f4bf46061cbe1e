import Foundation

/// Foundation's `Process` starts children with the spawning thread's signal mask, and Swift's worker
/// threads block SIGTERM among others. A child started that way cannot be stopped with SIGTERM,
/// and neither can what it starts (dbus-run-session's dbus-daemon then outlives it and keeps our
/// pipes open). So children are started with nothing blocked.
enum ChildSignals {
    static func launchUnblocked(_ process: Process) throws {
        var empty = sigset_t()
        var saved = sigset_t()
        sigemptyset(&empty)
        pthread_sigmask(SIG_SETMASK, &empty, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        try process.run()
    }
}
