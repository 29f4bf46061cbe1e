import AuthBase
import Foundation

/// Turnkey's stamped API under `/turnkey/api` (contract §8): `whoami`, `get_user`, `list_wallets`,
/// `list_wallet_accounts`, `stamp_login` and `get_activity`. The stamp is checked before the body is read.
extension TurnkeyBackend {
    static let activityCompleted = "ACTIVITY_STATUS_COMPLETED"
    static let activityPending = "ACTIVITY_STATUS_PENDING"

    func whoami(_ request: EmulatorRequest) throws(TurnkeyError) -> EmulatorResponse {
        let signer = try verifyStamp(request)
        let body = try request.turnkeyBody(TurnkeyWire.WhoamiRequest.self)
        let session = try stampSession(publicKey: signer, organizationId: body.organizationId)
        let organization = try sessionOrganization(session)
        return .turnkey(
            TurnkeyWire.WhoamiResponse(
                organizationId: organization.organizationId,
                organizationName: organization.organizationName,
                userId: organization.user.userId, username: organization.user.userName))
    }

    func getUser(_ request: EmulatorRequest) throws(TurnkeyError) -> EmulatorResponse {
        let signer = try verifyStamp(request)
        let body = try request.turnkeyBody(TurnkeyWire.GetUserRequest.self)
        let session = try stampSession(publicKey: signer, organizationId: body.organizationId)
        let organization = try sessionOrganization(session)
        let user = organization.user
        guard user.userId == body.userId else { throw .notFound("no user \(body.userId) in organization \(body.organizationId)") }
        var fields: [String: JSONValue] = [
            "userId": .string(user.userId), "userName": .string(user.userName),
            "authenticators": .array([]), "apiKeys": .array([]), "userTags": .array([]),
            "oauthProviders": .array(
                user.oauthProviders.map { provider in
                    .object([
                        "providerId": .string(provider.providerId), "providerName": .string(provider.providerName),
                        "issuer": .string(provider.issuer), "audience": .string(provider.audience),
                        "subject": .string(provider.subject),
                        "createdAt": Self.timestamp(provider.createdAt), "updatedAt": Self.timestamp(provider.createdAt)
                    ])
                }),
            "createdAt": Self.timestamp(user.createdAt), "updatedAt": Self.timestamp(user.createdAt)
        ]
        if let email = user.userEmail { fields["userEmail"] = .string(email) }
        if let phone = user.profile.userPhoneNumber { fields["userPhoneNumber"] = .string(phone) }
        fields["userTags"] = .array(user.profile.userTags.map(JSONValue.string))
        return .turnkey(TurnkeyWire.GetUserResponse(user: .object(fields)))
    }

    /// `{"wallets":[v1Wallet]}`: the session's sub-organization's wallets.
    func listWallets(_ request: EmulatorRequest) throws(TurnkeyError) -> EmulatorResponse {
        let signer = try verifyStamp(request)
        let body = try request.turnkeyBody(TurnkeyWire.ListWalletsRequest.self)
        let organization = try sessionOrganization(try stampSession(publicKey: signer, organizationId: body.organizationId))
        return .turnkey(
            TurnkeyWire.ListWalletsResponse(
                wallets: organization.wallets.map { wallet in
                    .object([
                        "walletId": .string(wallet.walletId), "walletName": .string(wallet.walletName),
                        "createdAt": Self.timestamp(wallet.createdAt), "updatedAt": Self.timestamp(wallet.createdAt),
                        "exported": .bool(false), "imported": .bool(false)
                    ])
                }))
    }

    /// `{"accounts":[v1WalletAccount]}`: one wallet's accounts, or every account of the organization
    /// without `walletId`.
    func listWalletAccounts(_ request: EmulatorRequest) throws(TurnkeyError) -> EmulatorResponse {
        let signer = try verifyStamp(request)
        let body = try request.turnkeyBody(TurnkeyWire.ListWalletAccountsRequest.self)
        let organization = try sessionOrganization(try stampSession(publicKey: signer, organizationId: body.organizationId))
        var wallets = organization.wallets
        if let walletId = body.walletId, !walletId.isEmpty {
            wallets = wallets.filter { $0.walletId == walletId }
            guard !wallets.isEmpty else { throw .notFound("no wallet \(walletId) in organization \(body.organizationId)") }
        }
        let accounts: [JSONValue] = wallets.flatMap { wallet in
            wallet.accounts.map { account in
                .object([
                    "walletAccountId": .string(account.walletAccountId), "organizationId": .string(wallet.organizationId),
                    "walletId": .string(wallet.walletId), "curve": .string(account.curve),
                    "pathFormat": .string(account.pathFormat), "path": .string(account.path),
                    "addressFormat": .string(account.addressFormat), "address": .string(account.address),
                    "createdAt": Self.timestamp(wallet.createdAt), "updatedAt": Self.timestamp(wallet.createdAt)
                ])
            }
        }
        return .turnkey(TurnkeyWire.ListWalletAccountsResponse(accounts: accounts))
    }

    /// A new session for `parameters.publicKey`, stamped with a live session's key; answered as a
    /// completed activity (or pending first, under a `pending` fault).
    func stampLogin(_ request: EmulatorRequest) throws(TurnkeyError) -> EmulatorResponse {
        let signer = try verifyStamp(request)
        let body = try request.turnkeyBody(TurnkeyWire.StampLoginRequest.self)
        let session = try stampSession(publicKey: signer, organizationId: body.organizationId)
        guard body.type == TurnkeyWire.stampLoginActivity else {
            throw .invalidArgument("type must be \(TurnkeyWire.stampLoginActivity)")
        }
        guard !body.timestampMs.isEmpty, body.timestampMs.utf8.allSatisfy({ (48...57).contains($0) }) else {
            throw .invalidArgument("timestampMs must be milliseconds since 1970, as a string of digits")
        }
        let parameters = body.parameters
        try requirePublicKey(parameters.publicKey, field: "parameters.publicKey")
        guard let seconds = Int(parameters.expirationSeconds), (1...31_536_000).contains(seconds) else {
            throw .invalidArgument("parameters.expirationSeconds must be a whole number of seconds from 1 to 31536000, as a string")
        }
        let organization = try sessionOrganization(session)
        let jwt = try startSession(
            publicKey: parameters.publicKey, organization: organization,
            expirationSeconds: seconds, invalidateExisting: parameters.invalidateExisting)
        let activity = TurnkeyActivity(
            activityId: Identifiers.random(), organizationId: organization.organizationId, type: body.type,
            fingerprint: "sha256:" + Hex.encode(context.libcrypto.sha256(Array(request.body))), createdAt: now,
            intent: .object([
                "stampLoginIntent": .object([
                    "publicKey": .string(parameters.publicKey), "expirationSeconds": .string(parameters.expirationSeconds),
                    "invalidateExisting": .bool(parameters.invalidateExisting)
                ])
            ]),
            result: .object(["stampLoginResult": .object(["session": .string(jwt)])]),
            pendingReads: request.pendingActivityReads)
        directory.record(activity)
        return .turnkey(TurnkeyWire.ActivityResponse(activity: answer(activity)))
    }

    func getActivity(_ request: EmulatorRequest) throws(TurnkeyError) -> EmulatorResponse {
        let signer = try verifyStamp(request)
        let body = try request.turnkeyBody(TurnkeyWire.GetActivityRequest.self)
        _ = try stampSession(publicKey: signer, organizationId: body.organizationId)
        guard let activity = directory.activity(body.activityId), activity.organizationId == body.organizationId else {
            throw .notFound("no activity \(body.activityId) in organization \(body.organizationId)")
        }
        return .turnkey(TurnkeyWire.ActivityResponse(activity: answer(activity)))
    }

    // MARK: helpers

    private func sessionOrganization(_ session: EmulatedTurnkeySession) throws(TurnkeyError) -> SubOrganization {
        guard let organization = directory.organization(session.organizationId) else {
            throw .notFound("no organization \(session.organizationId)")
        }
        return organization
    }

    /// v1Activity; a pending one uses up one of its pending answers.
    private func answer(_ activity: TurnkeyActivity) -> JSONValue {
        let pending = activity.pendingReads > 0
        if pending { activity.pendingReads -= 1 }
        return .object([
            "id": .string(activity.activityId), "organizationId": .string(activity.organizationId),
            "status": .string(pending ? Self.activityPending : Self.activityCompleted), "type": .string(activity.type),
            "fingerprint": .string(activity.fingerprint), "canApprove": .bool(false), "canReject": .bool(false),
            "createdAt": Self.timestamp(activity.createdAt), "updatedAt": Self.timestamp(pending ? activity.createdAt : now),
            "intent": activity.intent, "result": pending ? .object([:]) : activity.result, "votes": .array([])
        ])
    }

    /// `{"seconds":"…","nanos":"0"}` (int64 fields are strings in proto JSON).
    static func timestamp(_ seconds: Int) -> JSONValue {
        .object(["seconds": .string(String(seconds)), "nanos": .string("0")])
    }
}
