import Foundation

/// Placeholder until PortalAuth (core) and PortalAuthGNOME are merged: every call says sign-in is not
/// available yet. Replaced by the PortalAuth-backed implementation.
@MainActor
final class PortalAccountService: AccountService {
    private struct NotAvailable: Error {}
    static func makeDefault() -> AccountService { PortalAccountService() }
    func restore() async throws -> SignedInAccount? { nil }
    func signIn(with provider: SignInProvider) async throws -> SignInOutcome { throw NotAvailable() }
    var currentAuthorizeURL: URL? { nil }
    func openAuthorizeURLAgain() async throws { throw NotAvailable() }
    func sendMagicLink(to email: String) async throws { throw NotAvailable() }
    func receive(_ uri: String) async throws -> SignInOutcome? { nil }
    func verify(code: String, for challenge: CodeChallenge) async throws -> SignedInAccount { throw NotAvailable() }
    func checkSession() async throws {}
    func signOut() async throws {}
    var onSessionInvalidated: (@MainActor () -> Void)?
    func describe(_ error: Error) -> UserFacingError {
        UserFacingError(message: tr("Signing in is not available in this build."), nextStep: .dismiss)
    }
}
