import Foundation

/// The fake Apple ID side of Sign in with Apple, modelled on what a backend really receives:
/// - every account has a stable `sub`;
/// - the email (shared, or a Hide My Email relay address) arrives in the `user` JSON only when the
///   person consents for an app the first time; later sign-ins carry just the `sub`, which the
///   backend must map to the end user it recorded;
/// - choosing the other sharing option counts as a fresh consent (as after revoking the app in
///   Apple ID settings); a relay address, once made, stays the same for that account and app.
final class FakeApple {
    struct Assertion {
        let sub: String
        /// `{"email":…}` on first consent only.
        let userJSON: String?
    }

    private final class Account {
        let sub: String
        var relayEmail: [String: String] = [:] // per environment or Turnkey client ID
        var consentedSharing: [String: Bool] = [:] // per environment: shared the real email?
        init(sub: String) { self.sub = sub }
    }

    private var accounts: [String: Account] = [:] // by the real Apple ID email

    func authorize(appleIdEmail: String, shareEmail: Bool, environmentId: String) -> Assertion {
        let account = self.account(appleIdEmail)
        if account.consentedSharing[environmentId] == shareEmail {
            return Assertion(sub: account.sub, userJSON: nil)
        }
        account.consentedSharing[environmentId] = shareEmail
        let email = shareEmail ? appleIdEmail : relayEmail(appleIdEmail: appleIdEmail, app: environmentId)
        let user = String(decoding: JSON.encode(["email": email]), as: UTF8.self)
        return Assertion(sub: account.sub, userJSON: user)
    }

    /// The account's stable `sub` (what an `id_token` carries every time).
    func subject(appleIdEmail: String) -> String { account(appleIdEmail).sub }

    /// The account's Hide My Email address for one app (an environment, or a Turnkey client ID).
    func relayEmail(appleIdEmail: String, app: String) -> String {
        let account = self.account(appleIdEmail)
        let relay = account.relayEmail[app] ?? (Crypto.sha256Hex(Crypto.randomToken()).prefix(12) + "@privaterelay.appleid.com")
        account.relayEmail[app] = relay
        return relay
    }

    private func account(_ appleIdEmail: String) -> Account {
        if let existing = accounts[appleIdEmail] { return existing }
        let created = Account(
            sub:
                "001\(Int.random(in: 100_000...999_999)).\(Crypto.sha256Hex(Crypto.randomToken()).prefix(32)).0\(Int.random(in: 100...999))"
        )
        accounts[appleIdEmail] = created
        return created
    }
}
