import Foundation
import SignInAccounts
import SignInFlow

/// The desktop for a flow over the services under test: a keyring that is there, no foreign scheme
/// handler, and "words" that name the error's type, so a test sees which fact reached the banner.
@MainActor
final class FakeDesktop: AccountDesktop {
    private(set) var described: [(error: String, backend: Backend)] = []

    func foreignSchemeHandler() -> String? { nil }
    func claimSchemeHandler() throws {}
    func keyringAvailable() async -> Bool { true }
    func watchKeyring(_ changed: @escaping @MainActor @Sendable () -> Void) {}
    func openInBrowser(_ url: URL) async throws {}

    func describe(_ error: any Error, backend: Backend) -> UserFacingError {
        described.append((String(describing: type(of: error)), backend))
        let kind: UserFacingError.Kind =
            switch error {
            case is SessionEndedError: .sessionEnded
            case is CancellationError: .cancelled
            case TwoFactorCodeError.wrongCode: .wrongCode
            default: .general
            }
        return UserFacingError(message: "\(backend.rawValue): \(type(of: error))", nextStep: .dismiss, kind: kind)
    }
}
