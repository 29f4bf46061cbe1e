import Foundation
import Testing
@testable import PortalAuth

@Suite("Error messages and case names")
struct ErrorMessagesTests {
    @Test func portalAuthErrorCaseNames() {
        let cases: [(PortalAuthError, String)] = [
            (.invalidArgument(name: "apiHost"), "invalidArgument"),
            (.magicLinkNotConfigured, "magicLinkNotConfigured"),
            (.authMethodUnavailable(.google), "authMethodUnavailable"),
            (.authenticationFailed(error: "oauth_failed"), "authenticationFailed"),
            (.malformedResponse(path: "/p", missing: "data"), "malformedResponse"),
            (.invalidGrantResponse, "invalidGrantResponse"),
            (.invalidUserJwt(detail: "d"), "invalidUserJwt"),
            (.sessionStorageFailure(message: "m"), "sessionStorageFailure"),
            (.accountAbstractionUnavailable(message: "m"), "accountAbstractionUnavailable"),
            (.rateLimited, "rateLimited"),
            (.totpQrUnavailable, "totpQrUnavailable"),
        ]
        for (error, name) in cases {
            #expect(error.caseName == name)
            #expect(error.description == error.errorDescription)
            #expect(error.localizedDescription == error.errorDescription)
            #expect((error.errorDescription ?? "").count > 30)
        }
    }

    @Test func otherErrorCaseNames() {
        #expect(PortalAuthSignInError.closed.caseName == "closed")
        #expect(PortalAuthSignInError.unavailable.caseName == "unavailable")
        #expect(PortalAuthSignInError.signInInProgress.caseName == "signInInProgress")
        #expect(PortalAuthSignInError.callbackIncomplete.caseName == "callbackIncomplete")
        #expect(PortalCredentialError.sessionInvalidated.caseName == "sessionInvalidated")
        #expect(PortalCredentialError.sessionInvalidated.requiresReauthentication)
        #expect(PortalRequestsError.unauthorized.caseName == "unauthorized")
        #expect(PortalRequestsError.clientError("400 - x").caseName == "clientError")
        #expect(PortalRequestsError.internalServerError("500 - x").caseName == "internalServerError")
        #expect(PortalRequestsError.redirectError("302 - x").caseName == "redirectError")
        #expect(PortalRequestsError.couldNotParseHttpResponse.caseName == "couldNotParseHttpResponse")
        #expect(TransportError(.timedOut, message: "t").caseName == "timedOut")
        #expect(SessionStoreError(message: "m").caseName == "sessionStoreError")
    }

    @Test func messagesSayWhatToDoNext() {
        #expect(PortalAuthError.invalidArgument(name: "apiHost").description.contains("apiHost"))
        #expect(PortalAuthError.authMethodUnavailable(.apple).description.contains("Apple sign-in is not enabled"))
        #expect(PortalAuthError.sessionStorageFailure(message: "The login keyring is locked.").description
                .contains("The login keyring is locked."))
        #expect(PortalAuthError.sessionStorageFailure(message: "disk full").description
                == "The session could not be stored: disk full. Fix the session storage (for example, unlock the login keyring) and try again.")
        #expect(PortalAuthError.rateLimited.description.contains("Wait"))
        #expect(PortalAuthSignInError.closed.description.contains("Start it again"))
        #expect(PortalCredentialError.sessionInvalidated.description.contains("Sign in again"))
        #expect(PortalRequestsError.unauthorized.description.contains("Sign in again"))
        #expect(PortalRequestsError.clientError("404 - Not Found").description.contains("404 - Not Found"))
        #expect(TransportError(.cannotConnect, message: "Connection refused").localizedDescription.contains("Check the network"))
        #expect(SessionStoreError(message: "Unlock the keyring.").localizedDescription == "Unlock the keyring.")
    }
}
