import FoundationEssentials

/// Turnkey's API with a session key: every request stamped over its exact body bytes. A thin
/// transport, one method per endpoint. No endpoint gives a status a meaning of its own: each has
/// the one `TurnkeyHTTP.error(for:path:)` gives it (a 401 is the session Turnkey refuses).
struct TurnkeyAPI: Sendable {
    let http: TurnkeyHTTP
    let stamper: Stamper

    private func post<Response: Decodable>(
        _ path: String, _ body: some Encodable, key: SigningKey,
        as type: Response.Type
    ) async throws -> Response {
        let bytes = try TurnkeyHTTP.encode(body)
        return try await http.post(path, body: bytes, headers: [TurnkeyWire.Header.stamp: try stamper.stamp(bytes, with: key)], as: type)
    }

    func whoami(organizationId: String, key: SigningKey) async throws -> TurnkeyWire.WhoamiResponse {
        try await post(
            TurnkeyWire.APIPath.whoami, TurnkeyWire.WhoamiRequest(organizationId: organizationId), key: key,
            as: TurnkeyWire.WhoamiResponse.self)
    }

    func getUser(organizationId: String, userId: String, key: SigningKey) async throws -> TurnkeyWire.GetUserResponse {
        try await post(
            TurnkeyWire.APIPath.getUser, TurnkeyWire.GetUserRequest(organizationId: organizationId, userId: userId),
            key: key, as: TurnkeyWire.GetUserResponse.self)
    }

    func stampLogin(_ request: TurnkeyWire.StampLoginRequest, key: SigningKey) async throws -> TurnkeyWire.ActivityResponse {
        try await post(TurnkeyWire.APIPath.stampLogin, request, key: key, as: TurnkeyWire.ActivityResponse.self)
    }

    func getActivity(organizationId: String, activityId: String, key: SigningKey) async throws -> TurnkeyWire.ActivityResponse {
        try await post(
            TurnkeyWire.APIPath.getActivity,
            TurnkeyWire.GetActivityRequest(organizationId: organizationId, activityId: activityId), key: key,
            as: TurnkeyWire.ActivityResponse.self)
    }

    func listWallets(organizationId: String, key: SigningKey) async throws -> TurnkeyWire.ListWalletsResponse {
        try await post(
            TurnkeyWire.APIPath.listWallets, TurnkeyWire.ListWalletsRequest(organizationId: organizationId), key: key,
            as: TurnkeyWire.ListWalletsResponse.self)
    }

    func listWalletAccounts(
        organizationId: String, walletId: String, key: SigningKey
    ) async throws
        -> TurnkeyWire.ListWalletAccountsResponse
    {
        try await post(
            TurnkeyWire.APIPath.listWalletAccounts,
            TurnkeyWire.ListWalletAccountsRequest(organizationId: organizationId, walletId: walletId), key: key,
            as: TurnkeyWire.ListWalletAccountsResponse.self)
    }
}
