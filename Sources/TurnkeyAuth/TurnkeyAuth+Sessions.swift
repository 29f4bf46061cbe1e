import FoundationEssentials

extension TurnkeyAuth {
    /// The session stored under `sessionKey` (the default one when nil), or nil. No network. A
    /// session past its expiry is ended (session and key deleted) and reads as nil.
    public func session(sessionKey: String? = nil) async throws -> TurnkeySession? {
        let key = try resolvedSessionKey(sessionKey)
        return try await mutex.withLock { try await self.liveSession(key) }
    }

    /// The session keys that hold a session (expired ones included until they are read or purged).
    public func sessionKeys() async throws -> [String] {
        try await mutex.withLock { try await self.storedSessionKeys() }
    }

    /// Every live session, by session key; expired ones are ended on the way.
    public func sessions() async throws -> [TurnkeySession] {
        try await mutex.withLock {
            var live: [TurnkeySession] = []
            for key in try await self.storedSessionKeys() {
                if let session = try await self.liveSession(key) { live.append(session) }
            }
            return live
        }
    }

    /// Signs out on this device: deletes the session and its key. Turnkey keeps no state to revoke
    /// (the session simply expires), as in the SDK. A browser sign-in that would store under the
    /// same key ends (`.closed`). Signing out of nothing is not an error.
    public func signOut(sessionKey: String? = nil) async throws {
        let key = try resolvedSessionKey(sessionKey)
        closeBrowserSignIn(storingUnder: key)
        try await mutex.withLock {
            self.replay.forget(sessionKey: key)
            guard let session = try await self.loadSession(key) else {
                self.log("no session \(key) to sign out of")
                return
            }
            try await self.endSession(session)
            self.log("signed out of session \(key)")
        }
    }

    /// What the SDK does at launch: ends pending sign-ins older than an hour (record and key) and
    /// sessions past their expiry (session and key). Safe to call at any time.
    public func purgeExpired() async throws {
        try await mutex.withLock {
            let now = self.clock.now()
            for pending in try await self.loadAllPending() where pending.isExpired(at: now) {
                self.log("ending a \(pending.provider.rawValue) sign-in that waited more than an hour")
                try await self.endPending(pending)
            }
            for session in try await self.loadAllSessions() where session.isExpired(at: now) {
                self.log("ending expired session \(session.sessionKey)")
                try await self.endSession(session)
            }
        }
    }

    /// Called with the mutex held.
    func liveSession(_ sessionKey: String) async throws -> TurnkeySession? {
        guard let session = try await loadSession(sessionKey) else { return nil }
        guard !session.isExpired(at: clock.now()) else {
            log("session \(sessionKey) has expired; ending it")
            try await endSession(session)
            return nil
        }
        return session
    }

    /// The live session and its key, for a stamped request. Called with the mutex held.
    func signingSession(_ sessionKey: String) async throws -> (TurnkeySession, SigningKey) {
        guard let session = try await loadSession(sessionKey) else { throw TurnkeyAuthError.sessionNotFound(sessionKey: sessionKey) }
        guard !session.isExpired(at: clock.now()) else {
            log("session \(sessionKey) has expired; ending it")
            try await endSession(session)
            throw TurnkeyAuthError.sessionExpired(sessionKey: sessionKey)
        }
        return (session, try await loadSigningKey(publicKey: session.publicKey))
    }

    /// `whoami`, stamped with the session's key: who Turnkey says the session belongs to.
    public func whoami(sessionKey: String? = nil) async throws -> TurnkeyWhoami {
        let key = try resolvedSessionKey(sessionKey)
        let (session, signingKey) = try await mutex.withLock { try await self.signingSession(key) }
        let path = TurnkeyWire.APIPath.whoami
        let answer = try await api.whoami(organizationId: session.organizationId, key: signingKey)
        guard let organizationId = answer.organizationId?.nonBlank else {
            throw TurnkeyAuthError.malformedResponse(path: path, missing: "organizationId")
        }
        guard let userId = answer.userId?.nonBlank else { throw TurnkeyAuthError.malformedResponse(path: path, missing: "userId") }
        return TurnkeyWhoami(
            organizationId: organizationId, organizationName: answer.organizationName,
            userId: userId, username: answer.username)
    }

    /// `get_user` for the session's own user, stamped with its key: its name, email and the
    /// providers it signs in with (`oauthProviders[].providerName`).
    public func user(sessionKey: String? = nil) async throws -> TurnkeyUser {
        let key = try resolvedSessionKey(sessionKey)
        let (session, signingKey) = try await mutex.withLock { try await self.signingSession(key) }
        let path = TurnkeyWire.APIPath.getUser
        let answer = try await api.getUser(organizationId: session.organizationId, userId: session.userId, key: signingKey)
        guard case .object(let user)? = answer.user, let userId = user["userId"]?.stringValue?.nonBlank else {
            throw TurnkeyAuthError.malformedResponse(path: path, missing: "user.userId")
        }
        var providers: [TurnkeyProvider] = []
        if case .array(let linked)? = user["oauthProviders"] {
            for case .object(let entry) in linked {
                if let provider = entry["providerName"]?.stringValue.flatMap({ TurnkeyProvider(providerName: $0.lowercased()) }),
                    !providers.contains(provider)
                {
                    providers.append(provider)
                }
            }
        }
        return TurnkeyUser(
            userId: userId, userName: user["userName"]?.stringValue?.nonBlank,
            userEmail: user["userEmail"]?.stringValue?.nonBlank, providers: providers)
    }
}
