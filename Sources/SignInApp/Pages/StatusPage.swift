import CSignInUI

/// A page with a spinner and a line of text ("Checking your saved session…"); its layout is
/// `ui/status-page.ui`.
@MainActor
final class StatusPage: StackPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let scaffold: PageScaffold

    init() {
        let layout = UILayout("ui/status-page.ui")
        scaffold = PageScaffold(layout)
        root = scaffold.root
        spinner = layout.widget("spinner")
    }

    func show(_ text: String) {
        scaffold.description.text = text
    }

    /// How long the page waits before its spinner turns: a check that ends sooner shows none, as
    /// GNOME's guidelines ask, and the window's first frame draws no spinner. Its icon
    /// (process-working-symbolic) is an SVG, which maps librsvg and libxml2 (~7 MiB) at start-up.
    static let spinnerDelay: Duration = .milliseconds(400)
    private var pendingSpinner: Task<Void, Never>?

    /// The spinner turns only while the page is on screen, and only after `spinnerDelay`.
    func setActive(_ active: Bool) {
        pendingSpinner?.cancel()
        pendingSpinner = nil
        guard active else {
            gtk_spinner_stop(spinner.cast())
            return
        }
        pendingSpinner = Task { [spinner] in
            guard (try? await Task.sleep(for: Self.spinnerDelay)) != nil else { return }
            gtk_spinner_start(spinner.cast())
        }
    }
}
