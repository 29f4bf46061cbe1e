import AuthTestSupport
import Testing

@testable import PortalAuth

@Suite("TotpRequiredResult")
struct TotpRequiredResultTests {
    @Test func secretComesFromTheEnrolmentLink() {
        let step = TotpRequiredResult(
            userJwt: Secrets.userJwt,
            totpLink: "otpauth://totp/Portal:alice%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Portal&digits=6",
            endUserId: "eu_1")
        #expect(step.totpSecret == "JBSWY3DPEHPK3PXP")
    }

    @Test func noLinkOrNoSecretMeansNoSecret() {
        #expect(TotpRequiredResult(userJwt: Secrets.userJwt, totpLink: nil, endUserId: "eu").totpSecret == nil)
        #expect(
            TotpRequiredResult(userJwt: Secrets.userJwt, totpLink: "otpauth://totp/x?issuer=P&secret=", endUserId: "eu").totpSecret == nil)
    }

    @Test(arguments: [
        ("jbswy3dpehpk3pxp", "JBSWY3DPEHPK3PXP"), ("JBSWY3DPEHPK3PXP", "JBSWY3DPEHPK3PXP"),
        ("MZXW6===", "MZXW6==="), ("MZXW6YQ", "MZXW6YQ"), ("gezdgnbv", "GEZDGNBV")
    ])
    func theSecretIsCheckedBase32InUpperCase(given: String, shown: String) {
        let step = TotpRequiredResult(userJwt: Secrets.userJwt, totpLink: "otpauth://totp/x?secret=\(given)&issuer=P", endUserId: "eu")
        #expect(step.totpSecret == shown)
    }

    /// Not base32: digits 0, 1, 8, 9, other characters, a length no encoding has, padding inside.
    @Test(arguments: [
        "JBSWY3DPEHPK3PX0", "JBSWY3DPEHPK3PX1", "JBSWY8DP", "JBSW-3DP", "JBS WY3DP", "A", "MZX", "MZXW6Y", "MZ=XW6==", "MZXW6=", "===="
    ])
    func aSecretThatIsNotBase32IsNone(secret: String) {
        let step = TotpRequiredResult(userJwt: Secrets.userJwt, totpLink: "otpauth://totp/x?secret=\(secret)", endUserId: "eu")
        #expect(step.totpSecret == nil)
    }

    @Test func descriptionLeavesTheJwtAndLinkOut() {
        let step = TotpRequiredResult(userJwt: Secrets.userJwt, totpLink: "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP", endUserId: "eu_1")
        let text = String(describing: AuthResult.totpRequired(step))
        expectNoSecret(text, "description")
        let showsTotpSecret = text.contains("JBSWY3DPEHPK3PXP")
        let namesTheUser = text.contains("eu_1")
        #expect(!showsTotpSecret)
        #expect(namesTheUser)
    }
}
