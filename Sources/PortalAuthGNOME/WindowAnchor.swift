import AuthBase
import CAuthPlatform
import GLibSupport

/// A GTK window as the anchor of the sign-ins started from it: what `setAuthPresentationAnchor(_:)`
/// and Turnkey's `handle*OAuth(anchor:)` take in a GTK app.
///
/// It holds the window weakly (a `GWeakRef`), as UIKit's anchors are held: once the window is
/// destroyed, `isAvailable` is false and a sign-in from it throws `.unavailable`. The window is the
/// parent of the OpenURI portal's request (`x11:XID`, or a Wayland handle exported through
/// xdg-foreign), and on Wayland the browser starts with an activation token from it, so the desktop
/// raises the browser rather than flashing it behind the window.
///
/// ```swift
/// let anchor = WindowAnchor(gtkWindow: window)   // a GtkWindow* from your GTK binding
/// auth.setAuthPresentationAnchor(anchor)
/// ```
public final class WindowAnchor: PresentationAnchor, @unchecked Sendable {
    // @unchecked: the weak reference is thread-safe (GWeakRef); GTK is only touched on the main context.
    private let reference: OpaquePointer

    /// An anchor for `gtkWindow`, held weakly: the window's lifetime stays the app's.
    /// - Parameter gtkWindow: a `GtkWindow *` (any GObject pointer type).
    public init(gtkWindow: UnsafeMutableRawPointer) {
        // A GTK app's main-actor tasks run under g_application_run only with Swift's main queue
        // driven from GLib's loop (idempotent; the desktop initialisers do the same).
        MainLoopBridge.attach()
        reference = platform_window_anchor_new(gtkWindow)
    }

    deinit { platform_window_anchor_free(reference) }

    /// False once the GTK window has been destroyed.
    public var isAvailable: Bool { platform_window_anchor_is_alive(reference) != 0 }

    /// The window's handle for xdg-desktop-portal (`x11:XID` or `wayland:HANDLE`), or "" when it has none.
    public func parentWindow() async -> String {
        await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            MainLoopBridge.invoke { [self] in
                let box = Unmanaged.passRetained(ParentBox(continuation)).toOpaque()
                platform_window_anchor_parent_window(
                    reference,
                    { parent, userData in
                        let box = Unmanaged<ParentBox>.fromOpaque(userData!).takeRetainedValue()
                        box.continuation.resume(returning: parent.map { String(cString: $0) } ?? "")
                    }, box)
            }
        }
    }

    /// An activation token from the window's display for the browser, or nil when it makes none.
    public func activationToken() async -> String? {
        try? await MainLoopBridge.value { [self] in
            guard let token = platform_window_anchor_activation_token(reference) else { return nil }
            defer { g_free(token) }
            return String(cString: token)
        }
    }
}

private final class ParentBox {
    let continuation: CheckedContinuation<String, Never>
    init(_ continuation: CheckedContinuation<String, Never>) { self.continuation = continuation }
}
