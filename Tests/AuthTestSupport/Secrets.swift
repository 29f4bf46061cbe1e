import AuthBase
import Foundation
import Testing

/// Secret-shaped values like the emulator mints. Tests compare them, never print them.
public enum Secrets {
    public static let grant = "pg_Q7xv2LkP9mWz4RtY8nBc3Hd"
    public static let otherGrant = "pg_Zz81KkLm29PqRs47TuVw06X"
    public static let sessionToken = "pst_Hh3Jk5Lm7Np9Qr2St4Vw6Xy"
    public static let otherSessionToken = "pst_Aa1Bb2Cc3Dd4Ee5Ff6Gg7Hh"
    public static let userJwt = jwt(claims: ["endUserId": "eu_totp", "authEnvironmentId": "local-dev", "iat": 1, "exp": 4_102_444_800])
    public static let otherUserJwt = jwt(claims: ["endUserId": "eu_totp", "authEnvironmentId": "local-dev", "iat": 2, "exp": 4_102_444_801])
    /// A TOTP step whose `exp` has passed.
    public static let expiredUserJwt = jwt(claims: ["endUserId": "eu_totp", "authEnvironmentId": "local-dev", "iat": 1, "exp": 601])

    /// A JWT-shaped string: base64url (no padding) header and claims, and a fake signature.
    public static func jwt(claims: [String: Any], padded: Bool = false, standardAlphabet: Bool = false) -> String {
        let header = segment(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8), padded: padded, standard: standardAlphabet)
        let body = try! JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        return header + "." + segment(body, padded: padded, standard: standardAlphabet) + ".c2lnbmF0dXJl"
    }

    public static func segment(_ data: Data, padded: Bool = false, standard: Bool = false) -> String {
        var text = data.base64EncodedString()
        if !standard { text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_") }
        if !padded { text = text.replacingOccurrences(of: "=", with: "") }
        return text
    }

    // Turnkey: the public key is public (Turnkey's docs example, nonce `1663bba4…22ef82`); the rest are secrets.
    public static let publicKeyHex = "0394e549c71fa99dd5cf752fba623090be314949b74e4cdf7ca72031dd638e281a"
    public static let privateKeyHex = "c85006053a3535c33cd309106c16c352e61b48b467e30498f3c6496f5e9cdace"
    public static let pkceVerifier = "xOoqUyPy8rT6wSIlRd-n2Kea0uzQWlVW1NS82N6scgs"
    /// A Discord or X authorization code.
    public static let providerCode = "RzJ2kh6yrvHd9v0qTbGxFS9k6YMFReUF5g1Nnce4"
    public static let oidcToken = jwt(claims: [
        "iss": "https://accounts.google.com", "aud": "emulator-turnkey-google",
        "sub": "google-sub-1", "email": "alice@example.com", "iat": 1, "exp": 4_102_444_800,
        "nonce": "1663bba492a323085b13895634a3618792c4ec6896f3c34ef3c26396df22ef82"
    ])
    public static let turnkeySessionJwt = jwt(claims: [
        "exp": 4_102_444_800, "public_key": publicKeyHex,
        "session_type": "SESSION_TYPE_READ_WRITE", "user_id": "user-1",
        "organization_id": "sub-org-1"
    ])

    /// Every secret a test may have handed the core.
    public static let all = [
        grant, otherGrant, sessionToken, otherSessionToken, userJwt, otherUserJwt, expiredUserJwt,
        privateKeyHex, pkceVerifier, providerCode, oidcToken, turnkeySessionJwt
    ]
}

/// Compares values that may be secrets without printing them when they differ
/// (a failed `#expect(a == b)` prints both sides).
public func expectSameSecret(
    _ actual: String?, _ expected: String?, _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let same = actual == expected
    #expect(same, "\(what) differs", sourceLocation: sourceLocation)
}

/// Fails, without printing `text`, when it holds a grant, session token, JWT, private key, verifier or code.
public func expectNoSecret(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let leaked = containsAnySecret(text)
    #expect(!leaked, "\(what) contains a secret", sourceLocation: sourceLocation)
}

/// Whether `text` contains any value from `Secrets.all`.
public func containsAnySecret(_ text: String) -> Bool {
    Secrets.all.contains { text.contains($0) } || SecretRedaction.containsSecret(text)
}

/// Waits (bounded) until `condition` holds, for state that another task changes.
public func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<2000 {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return condition()
}

/// Polls an asynchronous `condition` (a request to the emulator, say) every 50 ms for up to
/// `timeout` seconds; true as soon as it holds.
public func eventually(timeout: TimeInterval, _ condition: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(nanoseconds: 50_000_000)
    }
    return await condition()
}
