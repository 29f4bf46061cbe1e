import CAuthPlatform
import FoundationEssentials
import GLibSupport
import PortalAuth

/// Opens URLs in the user's default browser: through GIO's default handler, or in a Flatpak sandbox
/// through the OpenURI portal (`OpenURIPortal`).
public final class GioBrowserLauncher: BrowserLauncher, Sendable {
    /// A launcher for the session this process runs in (inside or outside a Flatpak sandbox).
    public init() {}

    /// Opens `url` in the default browser without a parent window.
    /// - Throws: `BrowserLaunchError` when no browser could be started.
    public func open(_ url: URL) async throws {
        try await open(url, from: nil)
    }

    /// Opens `url` for a sign-in started from `anchor`'s window: the OpenURI portal gets the window
    /// as its parent, and the browser an activation token (`XDG_ACTIVATION_TOKEN`) when the
    /// window's display makes one, so the desktop raises it.
    public func open(_ url: URL, from anchor: (any PresentationAnchor)?) async throws {
        let uri = url.absoluteString
        let token = await anchor?.activationToken()
        if FlatpakSandbox.isInside {
            return try await OpenURIPortal.open(uri, parentWindow: await anchor?.parentWindow() ?? "", activationToken: token)
        }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            MainLoopBridge.invoke {
                let context = g_app_launch_context_new()
                if let token { g_app_launch_context_setenv(context, "XDG_ACTIVATION_TOKEN", token) }
                let box = Unmanaged.passRetained(LaunchBox(continuation)).toOpaque()
                g_app_info_launch_default_for_uri_async(
                    uri, context, nil,
                    { _, result, userData in
                        let box = Unmanaged<LaunchBox>.fromOpaque(userData!).takeRetainedValue()
                        var error: UnsafeMutablePointer<GError>?
                        if g_app_info_launch_default_for_uri_finish(result, &error) != 0 {
                            box.continuation.resume()
                        } else {
                            box.continuation.resume(throwing: BrowserLaunchError(reason: GLibError.take(&error)?.message ?? ""))
                        }
                    }, box)
                g_object_unref(context)
            }
        }
    }
}

/// No browser could be started for the URL; `reason` is GIO's own words.
public struct BrowserLaunchError: Error, Sendable, CustomStringConvertible {
    /// GIO's (or the OpenURI portal's) explanation.
    public let reason: String
    /// `BrowserLaunchError(reason)`, for logs.
    public var description: String { "BrowserLaunchError(\(reason))" }
}

private final class LaunchBox {
    let continuation: CheckedContinuation<Void, any Error>
    init(_ continuation: CheckedContinuation<Void, any Error>) { self.continuation = continuation }
}
