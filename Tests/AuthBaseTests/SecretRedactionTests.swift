import AuthTestSupport
import Testing

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

@Suite("Secret redaction: Turnkey's opaque values")
struct OpaqueValueRedactionTests {
    @Test func verifiersPrivateKeysAndCodesAreReplaced() {
        // The emulator's Discord and X codes too: `xc_` and 32 base64url characters.
        for secret in [
            Secrets.pkceVerifier, Secrets.privateKeyHex, Secrets.providerCode, "xc_Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi",
            "discordc_Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi"
        ] {
            #expect(SecretRedaction.redact("value \(secret) end") == "value [redacted] end")
        }
    }

    @Test func publicKeysStatesAndPaddingStay() {
        let kept = [
            Secrets.publicKeyHex, "02" + String(Secrets.publicKeyHex.dropFirst(2)), "Qm9vbXN0YXRlMTIzNDU2Nw",
            String(repeating: "x", count: 250), "io.github.portalauth.TurnkeySession", "ACTIVITY_TYPE_STAMP_LOGIN",
            "SIGNATURE_SCHEME_TK_API_P256", "123e4567-e89b-12d3-a456-426614174000"
        ]
        for text in kept {
            #expect(SecretRedaction.redact(text) == text)
        }
    }
}
