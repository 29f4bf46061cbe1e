import Foundation

/// What `--state-file` keeps of a run, for the next: Portal's end users (with their TOTP secrets,
/// so an authenticator app set up once keeps working) and client sessions (by token digest), and
/// Turnkey's sub-organizations and sessions. Grants, OAuth states, the outbox, faults, rate limits
/// and the clock are a run's own and start afresh.
struct SavedState: Codable, Equatable {
    static let currentVersion = 1

    var version = currentVersion
    var portalUsers: [PortalUser] = []
    var portalSessions: [PortalSession] = []
    var turnkeyOrganizations: [TurnkeyOrganization] = []
    var turnkeySessions: [TurnkeySession] = []

    struct PortalUser: Codable, Equatable {
        let environmentId: String
        let email: String
        let name: String
        let needsTotp: Bool
        /// Whether the user's client has wallets (absent in a file from before wallets: none).
        let hasWallets: Bool?
        let totpSecret: String // base64
        let totpEnrolled: Bool
        let lastAcceptedTotpStep: Int?
    }

    struct PortalSession: Codable, Equatable {
        let tokenDigest: String
        let environmentId: String
        let endUserId: String
        let clientId: String
        let isAccountAbstracted: Bool
        let createdAt: Int
    }

    struct TurnkeyIdentity: Codable, Equatable {
        let providerId: String
        let providerName: String
        let issuer: String
        let audience: String
        let subject: String
        let createdAt: Int
    }

    struct TurnkeyOrganization: Codable, Equatable {
        let organizationId: String
        let organizationName: String
        let parentOrganizationId: String
        let authProxyConfigId: String
        let userId: String
        let userName: String
        let userEmail: String?
        let userPhoneNumber: String?
        let userTags: [String]?
        let identities: [TurnkeyIdentity]
        /// The wallet signup created (absent in a file from before wallets: none).
        let wallets: [TurnkeyWallet]?
        let createdAt: Int
    }

    struct TurnkeyWallet: Codable, Equatable {
        let walletId: String
        let walletName: String
        let mnemonicLength: Int
        let accounts: [TurnkeyWalletAccount]
        let createdAt: Int
    }

    struct TurnkeyWalletAccount: Codable, Equatable {
        let walletAccountId: String
        let curve: String
        let pathFormat: String
        let path: String
        let addressFormat: String
        let address: String
    }

    struct TurnkeySession: Codable, Equatable {
        let publicKey: String
        let organizationId: String
        let userId: String
        let sessionType: String
        let createdAt: Int
        let expiresAt: Int
    }
}

extension SavedState {
    /// The state of `emulator` now.
    init(of emulator: Emulator) {
        portalUsers = emulator.portal.users.ordered.map { user in
            PortalUser(
                environmentId: user.environmentId, email: user.email, name: user.name, needsTotp: user.needsTotp,
                hasWallets: user.hasWallets, totpSecret: Data(user.totpSecret).base64EncodedString(), totpEnrolled: user.totpEnrolled,
                lastAcceptedTotpStep: user.lastAcceptedTotpStep)
        }
        portalSessions = emulator.portal.sessions.digested.map { digest, session in
            PortalSession(
                tokenDigest: digest, environmentId: session.environmentId, endUserId: session.endUserId,
                clientId: session.clientId, isAccountAbstracted: session.isAccountAbstracted, createdAt: session.createdAt)
        }
        let directory = emulator.turnkey.directory
        turnkeyOrganizations = directory.organizations.map { organization in
            let user = organization.user
            return TurnkeyOrganization(
                organizationId: organization.organizationId, organizationName: organization.organizationName,
                parentOrganizationId: organization.parentOrganizationId, authProxyConfigId: organization.authProxyConfigId,
                userId: user.userId, userName: user.userName, userEmail: user.userEmail,
                userPhoneNumber: user.profile.userPhoneNumber, userTags: user.profile.userTags,
                identities: user.oauthProviders.map {
                    TurnkeyIdentity(
                        providerId: $0.providerId, providerName: $0.providerName, issuer: $0.issuer,
                        audience: $0.audience, subject: $0.subject, createdAt: $0.createdAt)
                },
                wallets: organization.wallets.map { wallet in
                    TurnkeyWallet(
                        walletId: wallet.walletId, walletName: wallet.walletName, mnemonicLength: wallet.mnemonicLength,
                        accounts: wallet.accounts.map {
                            TurnkeyWalletAccount(
                                walletAccountId: $0.walletAccountId, curve: $0.curve, pathFormat: $0.pathFormat, path: $0.path,
                                addressFormat: $0.addressFormat, address: $0.address)
                        },
                        createdAt: wallet.createdAt)
                },
                createdAt: organization.createdAt)
        }
        turnkeySessions = directory.allSessions.map {
            TurnkeySession(
                publicKey: $0.publicKey, organizationId: $0.organizationId, userId: $0.userId,
                sessionType: $0.sessionType, createdAt: $0.createdAt, expiresAt: $0.expiresAt)
        }
    }

    /// Puts the saved users, sessions and sub-organizations back into a freshly started emulator.
    /// What belongs to an environment the configuration no longer has is left out.
    func restore(into emulator: Emulator) {
        let portal = emulator.portal
        for saved in portalUsers where portal.environment(saved.environmentId) != nil {
            let user = EndUser(
                environmentId: saved.environmentId, email: saved.email, name: saved.name, needsTotp: saved.needsTotp,
                hasWallets: saved.hasWallets ?? false, totpSecret: Data(base64Encoded: saved.totpSecret).map(Array.init))
            user.totpEnrolled = saved.totpEnrolled
            user.lastAcceptedTotpStep = saved.lastAcceptedTotpStep
            portal.users.restore(user)
        }
        for saved in portalSessions
        where portal.users.user(environmentId: saved.environmentId, endUserId: saved.endUserId) != nil {
            portal.sessions.restore(
                tokenDigest: saved.tokenDigest,
                ClientSession(
                    environmentId: saved.environmentId, endUserId: saved.endUserId, clientId: saved.clientId,
                    isAccountAbstracted: saved.isAccountAbstracted, createdAt: saved.createdAt))
        }
        let directory = emulator.turnkey.directory
        for saved in turnkeyOrganizations {
            let user = EmulatedTurnkeyUser(
                userId: saved.userId, organizationId: saved.organizationId,
                profile: .init(
                    userName: saved.userName, userEmail: saved.userEmail, userPhoneNumber: saved.userPhoneNumber,
                    userTags: saved.userTags ?? []),
                createdAt: saved.createdAt)
            directory.restore(
                SubOrganization(
                    organizationId: saved.organizationId, organizationName: saved.organizationName,
                    parentOrganizationId: saved.parentOrganizationId, authProxyConfigId: saved.authProxyConfigId,
                    user: user,
                    wallets: (saved.wallets ?? []).map { wallet in
                        EmulatedWallet(
                            walletId: wallet.walletId, walletName: wallet.walletName, organizationId: saved.organizationId,
                            mnemonicLength: wallet.mnemonicLength,
                            accounts: wallet.accounts.map {
                                EmulatedWalletAccount(
                                    walletAccountId: $0.walletAccountId, curve: $0.curve, pathFormat: $0.pathFormat, path: $0.path,
                                    addressFormat: $0.addressFormat, address: $0.address)
                            },
                            createdAt: wallet.createdAt)
                    },
                    createdAt: saved.createdAt),
                identities: saved.identities.map {
                    OAuthProviderRecord(
                        providerId: $0.providerId, providerName: $0.providerName, issuer: $0.issuer,
                        audience: $0.audience, subject: $0.subject, createdAt: $0.createdAt)
                })
        }
        for saved in turnkeySessions where directory.organization(saved.organizationId) != nil {
            directory.restore(
                EmulatedTurnkeySession(
                    publicKey: saved.publicKey, organizationId: saved.organizationId, userId: saved.userId,
                    sessionType: saved.sessionType, createdAt: saved.createdAt, expiresAt: saved.expiresAt))
        }
    }
}
