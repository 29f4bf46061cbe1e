import Testing
import AuthTestSupport
@testable import AuthBase

@Suite("Secret redaction")
struct SecretRedactionTests {
    @Test func grantsTokensAndJWTsAreReplaced() {
        let text = "grant \(Secrets.grant), token \(Secrets.sessionToken); jwt=\(Secrets.userJwt) end"
        let redacted = SecretRedaction.redact(text)
        expectNoSecret(redacted, "redacted text")
        #expect(redacted == "grant [redacted], token [redacted]; jwt=[redacted] end")
    }

    @Test func ordinaryTextIsKept() {
        for text in ["oauth_failed: try again (401)", "io.github.portalauth.signin://auth/callback", "é ✓ €", ""] {
            #expect(SecretRedaction.redact(text) == text)
        }
    }

    @Test func nonASCIITextAroundASecretSurvives() {
        #expect(SecretRedaction.redact("«\(Secrets.grant)»") == "«[redacted]»")
    }
}
