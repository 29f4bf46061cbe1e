import FoundationEssentials

/// The core's access to its three stores: every failure becomes `storageFailure` naming the item,
/// and the rules that span them (a key outlives its pending sign-in only if a session uses it).
/// Called with the mutex held.
extension TurnkeyAuth {
    /// Reads the session JWT `path` answered, checks it is bound to `publicKey` (the key this client
    /// holds), and stores it under `sessionKey`: nothing is stored that this client could not use.
    func saveSession(_ jwt: String, sessionKey: String, boundTo publicKey: String, from path: String) async throws -> TurnkeySession {
        let session: TurnkeySession
        do {
            session = try TurnkeySession(jwt: jwt, sessionKey: sessionKey)
        } catch {
            throw TurnkeyAuthError.malformedResponse(path: path, missing: error.name)
        }
        guard session.publicKey == publicKey else { throw TurnkeyAuthError.sessionKeyMismatch(path: path) }
        let configId = config.authProxyConfigId
        try await stored(.session, "save", { try await stores.sessions.save(jwt, authProxyConfigId: configId, sessionKey: sessionKey) })
        return session
    }

    func stored<T>(_ item: StoredItem, _ action: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            let failure = Self.storeError(from: error)
            log("could not \(action) the \(item.rawValue): \(failure)")
            throw TurnkeyAuthError.storageFailure(item, failure)
        }
    }

    static func storeError(from error: any Error) -> SessionStoreError {
        if let storeError = error as? SessionStoreError { return storeError }
        if case TurnkeyAuthError.storageFailure(_, let failure)? = error as? TurnkeyAuthError { return failure }
        return SessionStoreError(.other, detail: SecretRedaction.redact(String(describing: error)))
    }

    // MARK: Sessions

    /// The session under `sessionKey`, or nil. An entry that cannot be read is deleted (it could
    /// never sign anything) and reads as nil.
    func loadSession(_ sessionKey: String) async throws -> TurnkeySession? {
        let configId = config.authProxyConfigId
        guard
            let jwt = try await stored(
                .session, "read", { try await stores.sessions.load(authProxyConfigId: configId, sessionKey: sessionKey) })
        else {
            return nil
        }
        do {
            return try TurnkeySession(jwt: jwt, sessionKey: sessionKey)
        } catch {
            log("the stored session \(sessionKey) could not be read (no \(error.name)); deleting it")
            try await stored(.session, "delete", { try await stores.sessions.delete(authProxyConfigId: configId, sessionKey: sessionKey) })
            return nil
        }
    }

    func storedSessionKeys() async throws -> [String] {
        let configId = config.authProxyConfigId
        return try await stored(.session, "list", { try await stores.sessions.sessionKeys(authProxyConfigId: configId) }).sorted()
    }

    func loadAllSessions() async throws -> [TurnkeySession] {
        var sessions: [TurnkeySession] = []
        for key in try await storedSessionKeys() {
            if let session = try await loadSession(key) { sessions.append(session) }
        }
        return sessions
    }

    /// Deletes the session, then its key unless another session signs with it.
    func endSession(_ session: TurnkeySession) async throws {
        let configId = config.authProxyConfigId
        try await stored(
            .session, "delete", { try await stores.sessions.delete(authProxyConfigId: configId, sessionKey: session.sessionKey) })
        try await deleteKeyIfUnused(session.publicKey)
    }

    // MARK: Keys

    func loadSigningKey(publicKey: String) async throws -> SigningKey {
        let privateHex = try await stored(.key, "read", { try await stores.keys.load(publicKey: publicKey) })
        guard let privateHex, let privateKey = Hex.decode(privateHex), privateKey.count == 32 else {
            throw TurnkeyAuthError.keyNotFound(publicKey: publicKey)
        }
        return SigningKey(privateKey: privateKey, publicKeyHex: publicKey)
    }

    func saveKey(_ pair: P256KeyPair) async throws {
        try await stored(
            .key, "save", { try await stores.keys.save(privateKey: Hex.encode(pair.privateKey), publicKey: pair.publicKeyHex) })
    }

    /// A key no stored session of this config signs with is of no further use.
    func deleteKeyIfUnused(_ publicKey: String) async throws {
        let inUse = try await loadAllSessions().contains { $0.publicKey == publicKey }
        guard !inUse else { return }
        try await stored(.key, "delete", { try await stores.keys.delete(publicKey: publicKey) })
    }

    func newKeyPair() throws -> P256KeyPair {
        do {
            return try crypto.generateP256()
        } catch {
            throw TurnkeyAuthError.cryptoFailure(operation: "generate a P-256 key")
        }
    }

    // MARK: Pending sign-ins

    func loadPending(state: String) async throws -> TurnkeyPendingSignInRecord? {
        let configId = config.authProxyConfigId
        guard
            let text = try await stored(
                .pendingSignIn, "read", { try await stores.pending.load(authProxyConfigId: configId, state: state) })
        else {
            return nil
        }
        guard let pending = TurnkeyPendingSignInRecord.decode(text), pending.state == state else {
            log("a pending sign-in could not be read; deleting it")
            try await stored(.pendingSignIn, "delete", { try await stores.pending.delete(authProxyConfigId: configId, state: state) })
            return nil
        }
        return pending
    }

    func savePending(_ pending: TurnkeyPendingSignInRecord) async throws {
        let configId = config.authProxyConfigId
        try await stored(
            .pendingSignIn, "save",
            {
                try await stores.pending.save(pending.encoded(), authProxyConfigId: configId, state: pending.state)
            })
    }

    func loadAllPending() async throws -> [TurnkeyPendingSignInRecord] {
        let configId = config.authProxyConfigId
        let records = try await stored(.pendingSignIn, "list", { try await stores.pending.all(authProxyConfigId: configId) })
        return records.compactMap { state, text in TurnkeyPendingSignInRecord.decode(text).flatMap { $0.state == state ? $0 : nil } }
    }

    /// Ends a pending sign-in: its record, then its key unless a session signs with it.
    func endPending(_ pending: TurnkeyPendingSignInRecord) async throws {
        let configId = config.authProxyConfigId
        knownSignIns.withLock { _ = $0.removeValue(forKey: pending.state) }
        try await stored(.pendingSignIn, "delete", { try await stores.pending.delete(authProxyConfigId: configId, state: pending.state) })
        try await deleteKeyIfUnused(pending.publicKey)
    }

    /// Cleanup after a failure that is already being reported: a second failure only goes to the log.
    func bestEffort(_ what: String, _ body: () async throws -> Void) async {
        do { try await body() } catch { log("could not \(what): \(error)") }
    }
}
