import Foundation

/// JSON bodies Portal answers with.
public enum Wire {
    public static func session(
        token: String = Secrets.sessionToken, endUserId: String? = "eu_1",
        clientId: String = "cl_1", accountAbstracted: Bool = false
    ) -> String {
        let user = endUserId.map { #""endUserId":"\#($0)","# } ?? ""
        return #"{"data":{\#(user)"clientId":"\#(clientId)","clientSessionToken":"\#(token)","isAccountAbstracted":\#(accountAbstracted)}}"#
    }

    public static func totpStep(userJwt: String = Secrets.userJwt, link: Bool = true) -> String {
        let totpLink =
            link
            ? #","totpLink":"otpauth://totp/Portal:totp%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Portal&algorithm=SHA1&digits=6&period=30""#
            : ""
        return #"{"data":{"endUserId":"eu_totp","userJwt":"\#(userJwt)"\#(totpLink)}}"#
    }

    public static func totpAccepted(token: String = Secrets.sessionToken) -> String {
        #"{"data":{"clientId":"cl_totp","clientSessionToken":"\#(token)","isAccountAbstracted":false}}"#
    }

    public static let authorizeUrls =
        #"{"data":{"google":"http://127.0.0.1:8790/idp/google/authorize?client_id=g&redirect_uri=cb&state=s1&response_type=code&scope=openid%20email","apple":"http://127.0.0.1:8790/idp/apple/authorize?client_id=a&state=s1&response_mode=form_post&scope=name%20email"}}"#
    public static let googleAuthorize =
        "http://127.0.0.1:8790/idp/google/authorize?client_id=g&redirect_uri=cb&state=s1&response_type=code&scope=openid%20email"
    public static let appleAuthorize =
        "http://127.0.0.1:8790/idp/apple/authorize?client_id=a&state=s1&response_mode=form_post&scope=name%20email"
    public static let error401 = #"{"error":"Unauthorized"}"#
}
