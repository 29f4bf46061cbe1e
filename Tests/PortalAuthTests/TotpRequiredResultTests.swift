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
