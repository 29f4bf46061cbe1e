import AuthTestSupport
import Foundation
import Testing

@testable import PortalAuth

/// Errors carry facts, and describe themselves as those facts for logs: the status, the path,
/// which store failure, the retry delay. (Words for people are the app's and the CLI's.)
@Suite("Error facts and descriptions")
struct ErrorDescriptionTests {
    @Test func descriptionsNameTheCaseAndItsFacts() {
        let cases: [(any Error, String)] = [
            (PortalAuthError.invalidArgument(name: "apiHost"), "PortalAuthError.invalidArgument(name: apiHost)"),
            (PortalAuthError.authMethodUnavailable(.apple), "PortalAuthError.authMethodUnavailable(APPLE)"),
            (
                PortalAuthError.sessionStorageFailure(SessionStoreError(.locked)),
                "PortalAuthError.sessionStorageFailure(SessionStoreError.locked)"
            ),
            (PortalAuthError.rateLimited(retryAfterSeconds: 30), "PortalAuthError.rateLimited(retryAfterSeconds: 30)"),
            (PortalAuthError.invalidUserJwt(detail: .claimsObject), "PortalAuthError.invalidUserJwt(claimsObject)"),
            (
                PortalRequestsError.unauthorized(path: PortalWire.Path.oauthUrls),
                "PortalRequestsError.unauthorized(path: /api/v3/auth/oauth/urls)"
            ),
            (PortalRequestsError.clientError(status: 404, detail: "Not Found"), "PortalRequestsError.clientError(404 - Not Found)"),
            (PortalAuthSignInError.closed, "PortalAuthSignInError(POPUP_CLOSED)"),
            (PortalCredentialError.sessionInvalidated, "PortalCredentialError.sessionInvalidated"),
            (TransportError(.timedOut, host: "api.portalhq.io"), "TransportError.timedOut(host: api.portalhq.io)")
        ]
        for (error, expected) in cases {
            #expect(String(describing: error) == expected)
            #expect(error.localizedDescription == expected)
        }
    }

    @Test(arguments: [
        (PortalCredentialError.sessionInvalidated, true), (.invalidApiKey, true), (.unavailable, false), (.providerFailure, false)
    ])
    func onlyEndedOrInvalidCredentialsNeedANewSignIn(error: PortalCredentialError, needsSignIn: Bool) {
        #expect(error.requiresReauthentication == needsSignIn)
    }
}
