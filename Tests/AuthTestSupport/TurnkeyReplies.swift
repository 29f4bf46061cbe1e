import AuthBase
import Foundation

/// The bodies Turnkey's Auth Proxy and API answer with, and the tokens they carry.
public enum TK {
    /// The emulator's redirect page for Google and Apple, and the fixed time the fakes' clocks start at.
    public static let redirectPage = "http://127.0.0.1:8790/turnkey/oauth-redirect"
    public static let start = Date(timeIntervalSince1970: 1_800_000_000)

    public static let parentOrganization = "org-parent"

    public static func walletKit(
        providers: [String] = ["google", "apple", "discord", "x"], expiration: String = "900",
        clientIds: [String: String]? = [
            "google": "emulator-turnkey-google", "apple": "emulator-turnkey-apple",
            "discord": "emulator-turnkey-discord", "x": "emulator-turnkey-x"
        ],
        redirectUrl: String? = TK.redirectPage
    ) -> String {
        var object: [String: Any] = [
            "enabledProviders": providers, "sessionExpirationSeconds": expiration,
            "organizationId": parentOrganization
        ]
        if let clientIds { object["oauthClientIds"] = clientIds }
        if let redirectUrl { object["oauthRedirectUrl"] = redirectUrl }
        return json(object)
    }

    public static func nonce(_ publicKey: String) -> String { Hex.encode(SHA256.hash(Array(publicKey.utf8))) }

    /// `tknonce`: Turnkey's second binding claim, for providers whose `nonce` the app does not choose.
    public static func oidcToken(
        nonce: String?, tknonce: String? = nil, iss: String = "http://127.0.0.1:8790/idp/google",
        aud: String = "emulator-turnkey-google", sub: String = "google-sub-1",
        email: String? = "alice@example.com"
    ) -> String {
        var claims: [String: Any] = ["iss": iss, "aud": aud, "sub": sub, "iat": 1_800_000_000, "exp": 1_800_000_600]
        if let nonce { claims["nonce"] = nonce }
        if let tknonce { claims["tknonce"] = tknonce }
        if let email { claims["email"] = email }
        return Secrets.jwt(claims: claims)
    }

    /// An OIDC token bound to `publicKey`.
    public static func oidcToken(for publicKey: String, sub: String = "google-sub-1") -> String {
        oidcToken(nonce: nonce(publicKey), sub: sub)
    }

    public static func sessionJwt(
        publicKey: String, expiresAt: Date = TK.start.addingTimeInterval(900),
        organizationId: String = "sub-org-1", userId: String = "user-1"
    ) -> String {
        Secrets.jwt(claims: [
            "exp": Int(expiresAt.timeIntervalSince1970), "public_key": publicKey,
            "session_type": "SESSION_TYPE_READ_WRITE", "user_id": userId, "organization_id": organizationId
        ])
    }

    public static func session(_ jwt: String) -> String { json(["session": jwt]) }
    public static func account(_ organizationId: String?) -> String { organizationId.map { json(["organizationId": $0]) } ?? "{}" }
    public static let signedUp = #"{"organizationId":"sub-org-1","userId":"user-1"}"#
    public static func oauth2(_ token: String) -> String { json(["oidcToken": token]) }
    public static let whoami =
        #"{"organizationId":"sub-org-1","organizationName":"sub-org-1800000000","userId":"user-1","username":"alice@example.com"}"#

    public static func activity(status: String = "ACTIVITY_STATUS_COMPLETED", session: String? = nil, id: String = "act-1") -> String {
        var activity: [String: Any] = [
            "id": id, "status": status, "type": "ACTIVITY_TYPE_STAMP_LOGIN", "organizationId": "sub-org-1",
            "fingerprint": "fp", "canApprove": false, "canReject": false,
            "createdAt": ["seconds": "1800000000", "nanos": "0"],
            "updatedAt": ["seconds": "1800000000", "nanos": "0"], "intent": [:], "votes": []
        ]
        activity["result"] = session.map { ["stampLoginResult": ["session": $0]] } ?? [:]
        return json(["activity": activity])
    }

    public static func error(_ code: Int, _ message: String) -> String { json(["code": code, "message": message, "details": []]) }

    public static func json(_ object: Any) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}
