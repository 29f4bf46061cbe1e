import AuthBase
import Foundation

/// An OIDC identity registered on a Turnkey user: Turnkey finds users by (issuer, audience, subject).
struct OAuthProviderRecord {
    let providerId: String
    let providerName: String
    let issuer: String
    let audience: String
    let subject: String
    let createdAt: Int
}

final class EmulatedTurnkeyUser {
    /// What signup says about the user.
    struct Profile {
        var userName: String
        var userEmail: String?
        var userPhoneNumber: String? = nil
        var userTags: [String] = []
    }

    let userId: String
    let organizationId: String
    let profile: Profile
    private(set) var oauthProviders: [OAuthProviderRecord] = []
    let createdAt: Int

    var userName: String { profile.userName }
    var userEmail: String? { profile.userEmail }

    init(userId: String, organizationId: String, profile: Profile, createdAt: Int) {
        self.userId = userId
        self.organizationId = organizationId
        self.profile = profile
        self.createdAt = createdAt
    }

    fileprivate func register(_ record: OAuthProviderRecord) { oauthProviders.append(record) }
}

/// A sub-organization `signup_v2` made: one per user here, under the Auth Proxy config's parent.
final class SubOrganization {
    let organizationId: String
    let organizationName: String
    let parentOrganizationId: String
    let authProxyConfigId: String
    let user: EmulatedTurnkeyUser
    /// The wallet signup asked for, if any.
    let wallets: [EmulatedWallet]
    let createdAt: Int

    init(
        organizationId: String, organizationName: String, parentOrganizationId: String,
        authProxyConfigId: String, user: EmulatedTurnkeyUser, wallets: [EmulatedWallet], createdAt: Int
    ) {
        self.wallets = wallets
        self.organizationId = organizationId
        self.organizationName = organizationName
        self.parentOrganizationId = parentOrganizationId
        self.authProxyConfigId = authProxyConfigId
        self.user = user
        self.createdAt = createdAt
    }
}

/// A session: the client's P-256 key, allowed to stamp API requests for one user until `expiresAt`.
/// The session JWT handed out for it is not kept.
struct EmulatedTurnkeySession {
    static let readWrite = "SESSION_TYPE_READ_WRITE"

    let publicKey: String
    let organizationId: String
    let userId: String
    let sessionType: String
    let createdAt: Int
    let expiresAt: Int
}

/// A submitted activity (`stamp_login`), kept for `get_activity`. A `pending` fault makes it answer
/// ACTIVITY_STATUS_PENDING for its first `pendingReads` answers.
final class TurnkeyActivity {
    let activityId: String
    let organizationId: String
    let type: String
    let fingerprint: String
    let createdAt: Int
    let intent: JSONValue
    /// Holds the new session JWT: answered to the client, never shown by the admin API.
    let result: JSONValue
    var pendingReads: Int

    init(
        activityId: String, organizationId: String, type: String, fingerprint: String, createdAt: Int,
        intent: JSONValue, result: JSONValue, pendingReads: Int
    ) {
        self.activityId = activityId
        self.organizationId = organizationId
        self.type = type
        self.fingerprint = fingerprint
        self.createdAt = createdAt
        self.intent = intent
        self.result = result
        self.pendingReads = pendingReads
    }
}

/// Turnkey's side of the world: sub-organizations with their users, sessions and activities.
final class TurnkeyDirectory {
    private(set) var organizations: [SubOrganization] = []
    private var byIdentity: [String: SubOrganization] = [:]
    private var sessions: [String: EmulatedTurnkeySession] = [:]
    private var sessionOrder: [String] = []
    private var activities: [String: TurnkeyActivity] = [:]

    func organization(_ organizationId: String) -> SubOrganization? {
        organizations.first { $0.organizationId == organizationId }
    }

    /// The sub-organization under `parent` whose user registered (issuer, audience, subject).
    func organization(parent: String, issuer: String, audience: String, subject: String) -> SubOrganization? {
        byIdentity[Self.identityKey(parent, issuer, audience, subject)]
    }

    /// A new sub-organization with its one user and the identities signup registered (checked unique before).
    func createSubOrganization(
        name: String, parent: String, authProxyConfigId: String, user profile: EmulatedTurnkeyUser.Profile,
        identities: [(providerName: String, issuer: String, audience: String, subject: String)],
        wallet: TurnkeyWire.WalletParams?, now: Int
    ) -> SubOrganization {
        let organizationId = Identifiers.random()
        let user = EmulatedTurnkeyUser(userId: Identifiers.random(), organizationId: organizationId, profile: profile, createdAt: now)
        let wallets = wallet.map { [WalletShape.make($0, organizationId: organizationId, now: now)] } ?? []
        let organization = SubOrganization(
            organizationId: organizationId, organizationName: name, parentOrganizationId: parent,
            authProxyConfigId: authProxyConfigId, user: user, wallets: wallets, createdAt: now)
        for identity in identities {
            user.register(
                OAuthProviderRecord(
                    providerId: Identifiers.random(), providerName: identity.providerName,
                    issuer: identity.issuer, audience: identity.audience,
                    subject: identity.subject, createdAt: now))
            byIdentity[Self.identityKey(parent, identity.issuer, identity.audience, identity.subject)] = organization
        }
        organizations.append(organization)
        return organization
    }

    /// A saved sub-organization back after a restart (`--state-file`), found again by its identities.
    func restore(_ organization: SubOrganization, identities: [OAuthProviderRecord]) {
        guard self.organization(organization.organizationId) == nil else { return }
        for identity in identities {
            organization.user.register(identity)
            byIdentity[Self.identityKey(organization.parentOrganizationId, identity.issuer, identity.audience, identity.subject)] =
                organization
        }
        organizations.append(organization)
    }

    /// Every session, expired or not, oldest first: what the state file keeps.
    var allSessions: [EmulatedTurnkeySession] { sessionOrder.compactMap { sessions[$0] } }

    /// A saved session back after a restart.
    func restore(_ session: EmulatedTurnkeySession) {
        if sessions[session.publicKey] == nil { sessionOrder.append(session.publicKey) }
        sessions[session.publicKey] = session
    }

    // MARK: sessions

    /// Starts (or replaces) the session of `publicKey`; `invalidateExisting` ends the user's others first.
    func startSession(
        publicKey: String, organizationId: String, userId: String, invalidateExisting: Bool,
        now: Int, expiresAt: Int
    ) {
        if invalidateExisting {
            for key in sessionOrder where sessions[key]?.userId == userId { sessions[key] = nil }
        }
        if sessions[publicKey] != nil { sessionOrder.removeAll { $0 == publicKey } }
        sessions[publicKey] = EmulatedTurnkeySession(
            publicKey: publicKey, organizationId: organizationId, userId: userId,
            sessionType: EmulatedTurnkeySession.readWrite, createdAt: now, expiresAt: expiresAt)
        sessionOrder.append(publicKey)
        sessionOrder.removeAll { sessions[$0] == nil }
    }

    /// The session of a public key, expired or not.
    func session(publicKey: String) -> EmulatedTurnkeySession? { sessions[publicKey] }

    /// Sessions not yet expired at `now`, oldest first.
    func liveSessions(now: Int) -> [EmulatedTurnkeySession] {
        sessionOrder.compactMap { sessions[$0] }.filter { now < $0.expiresAt }
    }

    // MARK: activities

    func record(_ activity: TurnkeyActivity) { activities[activity.activityId] = activity }

    func activity(_ activityId: String) -> TurnkeyActivity? { activities[activityId] }

    private static func identityKey(_ parent: String, _ issuer: String, _ audience: String, _ subject: String) -> String {
        [parent, issuer, audience, subject].joined(separator: "\n")
    }
}
