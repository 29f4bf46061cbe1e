import CAuthPlatform
import FoundationEssentials
import GLibSupport
import PortalAuth

/// Opens URLs in the user's default browser: through GIO's default handler, or in a Flatpak sandbox
/// through the OpenURI portal (`OpenURIPortal`).
public final class GioBrowserLauncher: BrowserLauncher, Sendable {
    public init() {}

    public func open(_ url: URL) async throws {
        let uri = url.absoluteString
        if FlatpakSandbox.isInside { return try await OpenURIPortal.open(uri) }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            MainLoopBridge.invoke {
                let box = Unmanaged.passRetained(LaunchBox(continuation)).toOpaque()
                g_app_info_launch_default_for_uri_async(
                    uri, nil, nil,
                    { _, result, userData in
                        let box = Unmanaged<LaunchBox>.fromOpaque(userData!).takeRetainedValue()
                        var error: UnsafeMutablePointer<GError>?
                        if g_app_info_launch_default_for_uri_finish(result, &error) != 0 {
                            box.continuation.resume()
                        } else {
                            box.continuation.resume(throwing: BrowserLaunchError(reason: GLibError.take(&error)?.message ?? ""))
                        }
                    }, box)
            }
        }
    }
}

/// No browser could be started for the URL; `reason` is GIO's own words.
public struct BrowserLaunchError: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public var description: String { "BrowserLaunchError(\(reason))" }
}

private final class LaunchBox {
    let continuation: CheckedContinuation<Void, any Error>
    init(_ continuation: CheckedContinuation<Void, any Error>) { self.continuation = continuation }
}
