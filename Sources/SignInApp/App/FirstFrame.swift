import CSignInUI
import GLibSupport

/// The window's first frame, which the flow waits for before it asks the network and the keyring
/// (`AccountDesktop.firstFrameDrawn`): their libraries are opened on first use, and opening them
/// before the status page is drawn would put their loading (~2 MiB, a few ms) in front of it.
@MainActor
final class FirstFrame {
    static let shared = FirstFrame()

    /// A window that is never drawn (started minimised, say) must not keep the flow from starting.
    static let longestWait: Duration = .seconds(1)

    private var drawn = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// The window's frame clock, connected until its first `after-paint`.
    private var clock: GObjectRef?

    /// Watches `window`'s frame clock; call it once the window is presented (realized).
    func watch(_ window: UnsafeMutablePointer<GtkWidget>) {
        guard !drawn, clock == nil, let frameClock = gtk_widget_get_frame_clock(window) else { return }
        let watched = GObjectRef(adopting: UnsafeMutableRawPointer(frameClock))
        watched.connect(.afterPaint) { [weak self] in self?.markDrawn() }
        clock = watched
    }

    /// Returns once the first frame is drawn, or after `longestWait`.
    func wait() async {
        guard !drawn else { return }
        Task { [weak self] in
            try? await Task.sleep(for: Self.longestWait)
            self?.markDrawn()
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func markDrawn() {
        guard !drawn else { return }
        drawn = true
        // Released on the next turn of the loop, not inside the clock's own emission.
        let released = clock
        clock = nil
        Task { _ = released }
        let resumed = waiting
        waiting = []
        for continuation in resumed { continuation.resume() }
    }
}
