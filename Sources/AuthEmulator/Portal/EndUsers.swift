import Foundation

/// An end user of one environment, identified by email. Ids derive from environment + email so the
/// same person keeps the same endUserId and clientId across resets and restarts.
final class EndUser {
    let environmentId: String
    let email: String
    let endUserId: String
    let clientId: String
    var name: String
    let needsTotp: Bool
    /// The client has an EVM and a Solana wallet (a configured user's `"wallets": true`).
    let hasWallets: Bool
    /// Fresh random secret per user (160 bits), made when the user is created.
    let totpSecret: [UInt8]
    /// Becomes true once a code was accepted; from then on the exchange no longer returns the totpLink.
    var totpEnrolled = false
    /// The last accepted time step: a code from this step or an earlier one is a replay.
    var lastAcceptedTotpStep: Int?
    /// Unix seconds of recent wrong codes, for throttling.
    var failedTotpAttempts: [Int] = []

    /// `totpSecret` is given only when a saved user comes back (`--state-file`); otherwise a new one is made.
    init(environmentId: String, email: String, name: String, needsTotp: Bool, hasWallets: Bool = false, totpSecret: [UInt8]? = nil) {
        self.environmentId = environmentId
        self.email = email
        self.name = name
        self.needsTotp = needsTotp
        self.hasWallets = hasWallets
        endUserId = EndUser.derivedId(kind: "end-user", environmentId: environmentId, email: email)
        clientId = EndUser.derivedId(kind: "client", environmentId: environmentId, email: email)
        self.totpSecret = totpSecret ?? Crypto.randomBytes(Totp.secretBytes)
    }

    var totpSecretBase32: String { Crypto.base32(totpSecret) }

    /// A UUID-shaped id from a hash, so it looks like Portal's ids and is stable.
    private static func derivedId(kind: String, environmentId: String, email: String) -> String {
        Identifiers.uuid(fromHex: Crypto.sha256Hex("\(kind)|\(environmentId)|\(email)"))
    }
}

/// All end users, seeded with each environment's configured test accounts.
final class UserDirectory {
    private var users: [String: EndUser] = [:]
    private(set) var ordered: [EndUser] = []

    init(environments: [EnvironmentConfig]) {
        for environment in environments {
            for user in environment.users {
                add(
                    EndUser(
                        environmentId: environment.id, email: user.email, name: user.name, needsTotp: user.needsTotp,
                        hasWallets: user.hasWallets))
            }
        }
    }

    func user(environmentId: String, email: String) -> EndUser? {
        users[key(environmentId, Emails.normalize(email))]
    }

    func user(environmentId: String, endUserId: String) -> EndUser? {
        ordered.first { $0.environmentId == environmentId && $0.endUserId == endUserId }
    }

    /// Someone not configured signs in for the first time: a new end user without TOTP.
    func findOrCreate(environmentId: String, email: String) -> EndUser {
        let normalized = Emails.normalize(email)
        if let existing = user(environmentId: environmentId, email: normalized) { return existing }
        let created = EndUser(environmentId: environmentId, email: normalized, name: "", needsTotp: false)
        add(created)
        return created
    }

    /// A saved user back after a restart, in place of the seeded one of the same email.
    func restore(_ user: EndUser) {
        ordered.removeAll { $0.environmentId == user.environmentId && $0.email == user.email }
        add(user)
    }

    private func add(_ user: EndUser) {
        users[key(user.environmentId, user.email)] = user
        ordered.append(user)
    }

    private func key(_ environmentId: String, _ email: String) -> String { environmentId + "\n" + email }
}
