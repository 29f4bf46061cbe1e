import AuthTestSupport
import Foundation
import Testing

@testable import AuthBase

@Suite("Printing a request")
struct HTTPRequestDescriptionTests {
    @Test func descriptionHidesTheBearerAndTheBody() throws {
        let request = HTTPRequest(
            method: "POST", url: try #require(URL(string: "http://127.0.0.1:8790/api/v3/auth/totps/validations")),
            headers: ["Authorization": "Bearer " + Secrets.userJwt, "Accept": "application/json"],
            body: Data(#"{"token":"\#(Secrets.grant)"}"#.utf8))
        for text in [String(describing: request), String(reflecting: request), "\([request])"] {
            expectNoSecret(text, "request description")
            let summarised = text.contains("POST http://127.0.0.1:8790/api/v3/auth/totps/validations") && text.contains("bytes")
            #expect(summarised)
        }
    }
}
