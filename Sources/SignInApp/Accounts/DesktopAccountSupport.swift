import FoundationEssentials
import PortalAuthGNOME
import SignInFlow

/// The desktop beside the account services: the scheme handler in the MIME defaults, the Secret
/// Service's bus name, the default browser, and the app's words for errors.
@MainActor
final class DesktopAccountSupport: AccountDesktop {
    private let schemeHandler = SchemeHandler()
    private let browser = GioBrowserLauncher()
    /// The Secret Service's bus name, watched for the flow while the app runs.
    private var keyringWatch: SecretServiceWatch?

    func foreignSchemeHandler() -> String? { schemeHandler.foreignHandlerName() }

    func claimSchemeHandler() throws { try schemeHandler.claim() }

    func keyringAvailable() async -> Bool { await SecretServicePresence.isAvailable() }

    func watchKeyring(_ changed: @escaping @MainActor @Sendable () -> Void) {
        keyringWatch = SecretServiceWatch { Task { @MainActor in changed() } }
    }

    func openInBrowser(_ url: URL) async throws { try await browser.open(url) }

    func firstFrameDrawn() async { await FirstFrame.shared.wait() }

    func describe(_ error: any Error, backend: Backend) -> UserFacingError { UserFacingErrors.describe(error, service: backend) }

    /// Portal's 429: the wait it names (a minute when it names none).
    func retryAfter(_ error: any Error) -> Double? {
        guard case PortalAuthError.rateLimited(let seconds) = error else { return nil }
        return Double(seconds ?? 60)
    }
}
