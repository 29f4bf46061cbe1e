import CExampleGtk
import Glibc

// The examples' GTK scaffolding: what UIKit or SwiftUI gives the seed pages' code (an app, a window,
// buttons, labels). Not part of the SDK; a real app uses its own GTK binding.

/// A GTK application whose windows run the examples' code on the main actor.
@MainActor public final class ExampleApp {
    private let app: UnsafeMutablePointer<GtkApplication>
    private var activate: (@MainActor () -> Void)?
    private var open: (@MainActor (String) -> Void)?

    /// - Parameter handlesOpen: the app is started with URIs to open (a redirect handed over by the
    ///   desktop); `onOpen` receives them.
    public init(id: String, handlesOpen: Bool = false) {
        app = example_app_new(id, handlesOpen ? 1 : 0)
    }

    /// Called with each URI the app is asked to open (`portal-example URI`, or the desktop's D-Bus activation).
    public func onOpen(_ body: @escaping @MainActor (String) -> Void) {
        open = body
        example_app_on_open(
            app,
            { uri, userData in
                let app = Unmanaged<ExampleApp>.fromOpaque(userData!).takeUnretainedValue()
                let text = String(cString: uri!)
                MainActor.assumeIsolated { app.open?(text) }
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Runs the app until its last window closes, then exits the process; `activate` makes the
    /// first window.
    public func run(activate: @escaping @MainActor () -> Void) -> Never {
        self.activate = activate
        example_app_on_activate(
            app,
            { userData in
                let app = Unmanaged<ExampleApp>.fromOpaque(userData!).takeUnretainedValue()
                MainActor.assumeIsolated { app.activate?() }
            }, Unmanaged.passUnretained(self).toOpaque())
        exit(example_app_run(app, CommandLine.argc, CommandLine.unsafeArgv))
    }

    public func makeWindow(title: String) -> ExampleWindow {
        ExampleWindow(example_window_new(app, title))
    }
}

/// A window with a column of controls.
@MainActor public final class ExampleWindow {
    private let window: UnsafeMutablePointer<GtkWidget>
    private var actions: [ButtonAction] = []

    init(_ window: UnsafeMutablePointer<GtkWidget>) { self.window = window }

    /// The `GtkWindow *`, for the SDK's `WindowAnchor(gtkWindow:)`.
    public var gtkWindow: UnsafeMutableRawPointer { UnsafeMutableRawPointer(window) }

    public func present() { example_window_present(window) }

    /// A button that runs `action` in a main-actor task when clicked (what it throws is printed, as
    /// an uncaught error in a SwiftUI button's `Task` would be dropped).
    public func addButton(_ label: String, action: @escaping @MainActor () async throws -> Void) {
        let box = ButtonAction(action)
        actions.append(box)
        _ = example_window_add_button(
            window, label,
            { userData in
                let box = Unmanaged<ButtonAction>.fromOpaque(userData!).takeUnretainedValue()
                MainActor.assumeIsolated { box.run() }
            }, Unmanaged.passUnretained(box).toOpaque())
    }

    public func addLabel(_ text: String = "") -> ExampleLabel {
        ExampleLabel(example_window_add_label(window, text))
    }

    public func addEntry(placeholder: String) -> ExampleEntry {
        ExampleEntry(example_window_add_entry(window, placeholder))
    }
}

@MainActor public final class ExampleLabel {
    private let label: UnsafeMutablePointer<GtkWidget>
    init(_ label: UnsafeMutablePointer<GtkWidget>) { self.label = label }
    public func show(_ text: String) { example_label_set_text(label, text) }
}

@MainActor public final class ExampleEntry {
    private let entry: UnsafeMutablePointer<GtkWidget>
    init(_ entry: UnsafeMutablePointer<GtkWidget>) { self.entry = entry }
    public var text: String { String(cString: example_entry_get_text(entry)) }
}

@MainActor private final class ButtonAction {
    let action: @MainActor () async throws -> Void
    init(_ action: @escaping @MainActor () async throws -> Void) { self.action = action }
    func run() {
        Task { @MainActor in
            do { try await action() } catch { print("Error: \(error)") }
        }
    }
}
