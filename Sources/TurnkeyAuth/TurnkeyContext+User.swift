import FoundationEssentials

extension TurnkeyContext {
    /// The active session's user (`get_user`, stamped with its key).
    /// - Throws: `sessionNotFound` when no session is active.
    public func fetchUser() async throws -> TurnkeyUser {
        let auth = try await core()
        return try await auth.user(sessionKey: try activeSessionKey())
    }

    /// Fetches the active session's user again and makes it the state.
    public func refreshUser() async throws {
        let user = try await fetchUser()
        update { $0.user = user }
    }

    /// The active session's wallets with their accounts (`list_wallets`, then `list_wallet_accounts`).
    /// - Throws: `sessionNotFound` when no session is active.
    public func fetchWallets() async throws -> [Wallet] {
        let auth = try await core()
        return try await auth.wallets(sessionKey: try activeSessionKey())
    }

    /// Fetches the active session's wallets again and makes them the state.
    public func refreshWallets() async throws {
        let wallets = try await fetchWallets()
        update { $0.wallets = wallets }
    }

    private func activeSessionKey() throws -> String {
        guard let key = selectedSessionKey else { throw TurnkeyAuthError.sessionNotFound(sessionKey: "") }
        return key
    }

    /// After a sign-in or restore: the user and wallets, each failure ignored as in the SDK.
    func refreshManagedState(_ auth: TurnkeyAuth) async {
        guard let key = selectedSessionKey else { return }
        let user = try? await auth.user(sessionKey: key)
        let wallets = try? await auth.wallets(sessionKey: key)
        update {
            guard $0.selectedSessionKey == key else { return }
            if let user { $0.user = user }
            if let wallets { $0.wallets = wallets }
        }
    }
}
