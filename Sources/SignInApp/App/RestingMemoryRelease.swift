import CSignInUI

/// Gives the heap's free pages back to the system once the window has rested for a second after a
/// page switch. Each switch renders the window through its transition, and the renderer's
/// window-sized buffers are freed again at its end; glibc keeps such freed memory resident (at the
/// heap's top up to twice the largest block it freed, and whole free pages inside the heap), so
/// without this RSS wanders by megabytes and creeps up over many sign-ins with nothing live behind
/// it (docs/PERFORMANCE.md, "Memory over many sign-ins").
@MainActor
final class RestingMemoryRelease {
    /// Longer than the stack's crossfade (200 ms) and a toast's reveal (500 ms at most).
    static let rest: Duration = .seconds(1)
    private var pending: Task<Void, Never>?

    /// A page switch started: release once the window has been at rest since.
    func pageSwitched() {
        pending?.cancel()
        pending = Task {
            guard (try? await Task.sleep(for: Self.rest)) != nil else { return }
            portal_ui_release_free_memory()
        }
    }
}
