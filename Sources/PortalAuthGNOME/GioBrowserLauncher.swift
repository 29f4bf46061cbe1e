import CPortalShim
import Foundation
import PortalAuth

/// Opens URLs in the user's default browser through GIO (the OpenURI portal under Flatpak).
public final class GioBrowserLauncher: BrowserLauncher, @unchecked Sendable {
    public init() {}

    public func open(_ url: URL) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            MainLoopBridge.invoke {
                let box = Unmanaged.passRetained(LaunchBox(continuation)).toOpaque()
                g_app_info_launch_default_for_uri_async(url.absoluteString, nil, nil, { _, result, userData in
                    let box = Unmanaged<LaunchBox>.fromOpaque(userData!).takeRetainedValue()
                    var error: UnsafeMutablePointer<GError>?
                    if g_app_info_launch_default_for_uri_finish(result, &error) != 0 {
                        box.continuation.resume()
                    } else {
                        let reason = error?.pointee.message.map { String(cString: $0) } ?? "unknown error"
                        if let error { g_error_free(error) }
                        box.continuation.resume(throwing: BrowserLaunchError(reason: reason))
                    }
                }, box)
            }
        }
    }
}

/// No browser could be started for the URL.
public struct BrowserLaunchError: Error, LocalizedError, CustomStringConvertible {
    public let reason: String
    public var description: String {
        "No web browser could be opened (\(reason)). Set a default web browser in Settings, or copy the sign-in link into a browser."
    }
    public var errorDescription: String? { description }
}

private final class LaunchBox {
    let continuation: CheckedContinuation<Void, Error>
    init(_ continuation: CheckedContinuation<Void, Error>) { self.continuation = continuation }
}
