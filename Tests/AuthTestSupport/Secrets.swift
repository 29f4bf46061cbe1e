import AuthBase
import Foundation
import Testing

/// Secret-shaped values like the emulator mints. Tests compare them, never print them.
public enum Secrets {
    public static let grant = "pg_Q7xv2LkP9mWz4RtY8nBc3Hd"
    public static let otherGrant = "pg_Zz81KkLm29PqRs47TuVw06X"
    public static let sessionToken = "pst_Hh3Jk5Lm7Np9Qr2St4Vw6Xy"
    public static let otherSessionToken = "pst_Aa1Bb2Cc3Dd4Ee5Ff6Gg7Hh"
    public static let userJwt = jwt(claims: ["endUserId": "eu_totp", "authEnvironmentId": "local-dev", "iat": 1, "exp": 4102444800])
    public static let otherUserJwt = jwt(claims: ["endUserId": "eu_totp", "authEnvironmentId": "local-dev", "iat": 2, "exp": 4102444801])
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

    /// Every secret a test may have handed the core.
    public static let all = [grant, otherGrant, sessionToken, otherSessionToken, userJwt, otherUserJwt, expiredUserJwt]
}

/// Compares values that may be secrets without printing them when they differ
/// (a failed `#expect(a == b)` prints both sides).
public func expectSameSecret(_ actual: String?, _ expected: String?, _ what: String,
                      sourceLocation: SourceLocation = #_sourceLocation) {
    let same = actual == expected
    #expect(same, "\(what) differs", sourceLocation: sourceLocation)
}

/// Fails, without printing `text`, when it holds a grant, session token or JWT.
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
