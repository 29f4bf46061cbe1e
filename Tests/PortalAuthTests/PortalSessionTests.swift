import AuthTestSupport
import Testing

@testable import PortalAuth

@Suite("PortalSession")
struct PortalSessionTests {
    @Test func handsOutItsTokenUntilInvalidated() throws {
        let session = PortalSession(clientSessionToken: Secrets.sessionToken, endUserId: "eu_1")
        expectSameSecret(try? session.getToken(), Secrets.sessionToken, "token mismatch")
        #expect(!session.isInvalidated)
        session.invalidate()
        #expect(session.isInvalidated)
        #expect(throws: PortalCredentialError.sessionInvalidated) { try session.getToken() }
        session.invalidate()
        #expect(session.isInvalidated)
        #expect(session.endUserId == "eu_1")
    }

    @Test func descriptionNeverShowsTheToken() {
        let session = PortalSession(clientSessionToken: Secrets.sessionToken, endUserId: "eu_1")
        let result = AuthResult.authenticated(AuthenticatedResult(session: session, clientId: "cl_1", isAccountAbstracted: nil))
        for text in [String(describing: session), String(describing: result), "\(session)"] {
            expectNoSecret(text, "description")
            let namesTheUser = text.contains("eu_1")
            #expect(namesTheUser)
        }
    }
}
