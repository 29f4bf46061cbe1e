import FoundationEssentials

extension TurnkeyContext {
    /// Stores a session JWT Turnkey issued under `sessionKey` (default `default`) and, when no session
    /// is active, makes it the state, as the SDK's `storeSession`. Its `public_key` must be a key kept
    /// here, and the session key free (`keyAlreadyExists`).
    ///
    /// - Parameters:
    ///   - jwt: The session JWT, as `stamp_login` or the Auth Proxy returned it.
    ///   - sessionKey: The key the session is stored under (default `default`).
    ///   - refreshedSessionTTLSeconds: The lifetime each automatic refresh asks for (at least
    ///     30 seconds, else `invalidArgument(refreshedSessionTTLSeconds)`); giving it turns automatic
    ///     refresh on for this session. Without it, with `autoRefreshSession` on, the session's
    ///     remaining lifetime is used.
    public func storeSession(jwt: String, sessionKey: String? = nil, refreshedSessionTTLSeconds: String? = nil) async throws {
        if let ttl = refreshedSessionTTLSeconds, !(Int(ttl).map { $0 >= Self.minimumRefreshTTLSeconds } ?? false) {
            throw TurnkeyAuthError.invalidArgument(name: "refreshedSessionTTLSeconds")
        }
        let session = try await core().storeSession(jwt: jwt, sessionKey: sessionKey)
        await adopt(session, refreshLifetime: refreshedSessionTTLSeconds)
    }

    /// Makes the session under `sessionKey` the active one and fetches its user and wallets.
    /// - Throws: `sessionNotFound` when no live session is stored under it.
    @discardableResult
    public func setActiveSession(sessionKey: String) async throws -> TurnkeySession {
        let auth = try await core()
        guard let session = try await auth.session(sessionKey: sessionKey) else {
            throw TurnkeyAuthError.sessionNotFound(sessionKey: sessionKey)
        }
        update {
            $0.authState = .authenticated
            $0.selectedSessionKey = session.sessionKey
            $0.session = session
            $0.user = nil
            $0.wallets = []
        }
        await refreshManagedState(auth)
        return session
    }

    /// The active session, if any.
    public func getActiveSession() -> TurnkeySession? { session }

    /// Replaces a session with a new one on a new key (`stamp_login`, stamped with the old key), as
    /// the SDK's `refreshSession`, and reschedules its expiry.
    ///
    /// - Parameters:
    ///   - expirationSeconds: The new session's lifetime (default `"900"`, the SDK's).
    ///   - sessionKey: The session to refresh (default: the active one; none active: `sessionNotFound`).
    ///   - invalidateExisting: Ends the user's other sessions at Turnkey (default `false`).
    public func refreshSession(
        expirationSeconds: String = TurnkeyConfiguration.defaultSessionExpirationSeconds, sessionKey: String? = nil,
        invalidateExisting: Bool = false
    ) async throws {
        let auth = try await core()
        guard let key = sessionKey ?? selectedSessionKey else { throw TurnkeyAuthError.sessionNotFound(sessionKey: "") }
        try await refresh(auth, sessionKey: key, expirationSeconds: expirationSeconds, invalidateExisting: invalidateExisting)
    }

    private func refresh(_ auth: TurnkeyAuth, sessionKey: String, expirationSeconds: String?, invalidateExisting: Bool) async throws {
        let refreshed = try await auth.refreshSession(
            sessionKey: sessionKey, expirationSeconds: expirationSeconds, invalidateExisting: invalidateExisting)
        scheduleExpiry(of: refreshed)
        let isSelected = state.withLock { $0.selectedSessionKey == sessionKey }
        if isSelected { update { $0.session = refreshed } }
    }

    /// Clears the session under `sessionKey` (default: the active one) on this device: its expiry
    /// timer, the stored session and its key. Turnkey keeps nothing to revoke, as in the SDK. When it
    /// was the active one, the state becomes `.unAuthenticated` with no user or wallets.
    public func clearSession(for sessionKey: String? = nil) async {
        guard let key = sessionKey ?? selectedSessionKey else { return }
        expiryTasks.withLock { $0.removeValue(forKey: key) }?.cancel()
        refreshLifetimes.withLock { _ = $0.removeValue(forKey: key) }
        if let auth {
            do { try await auth.signOut(sessionKey: key) } catch { log("could not clear session \(key): \(error)") }
        }
        let wasSelected = state.withLock { $0.selectedSessionKey == key }
        if wasSelected {
            update {
                $0.authState = .unAuthenticated
                $0.selectedSessionKey = nil
                $0.session = nil
                $0.user = nil
                $0.wallets = []
            }
        }
    }

    // MARK: Internal

    /// A session just stored: its expiry timer, its refresh lifetime, and, when none is active, the
    /// state (then its user and wallets), as the SDK's `storeSession`.
    func adopt(_ session: TurnkeySession, refreshLifetime: String?) async {
        if let lifetime = refreshLifetime ?? (autoRefreshSession ? remainingLifetime(of: session) : nil) {
            refreshLifetimes.withLock { $0[session.sessionKey] = lifetime }
        }
        let becameActive = state.withLock { current -> Bool in
            guard current.selectedSessionKey == nil else { return false }
            current.authState = .authenticated
            current.selectedSessionKey = session.sessionKey
            current.session = session
            return true
        }
        // Armed after the state is set, so a timer that fires at once clears what it finds.
        scheduleExpiry(of: session)
        guard becameActive, let auth else { return }
        changeHandler.withLock { $0 }?(self)
        await refreshManagedState(auth)
    }

    /// `exp − now` in whole seconds, as the SDK stores it for auto-refresh.
    private func remainingLifetime(of session: TurnkeySession) -> String {
        String(max(0, Int(session.expiresAt.timeIntervalSince(clock.now()))))
    }

    /// Arms the session's timer for `expiryBuffer` seconds before `exp`: it then refreshes the session
    /// (automatic refresh on, or a TTL given to `storeSession`) or clears it; a failed refresh clears
    /// it too. A session with no more than the buffer left is cleared at once, as in the SDK.
    func scheduleExpiry(of session: TurnkeySession) {
        let key = session.sessionKey
        let delay = session.expiresAt.timeIntervalSince(clock.now()) - Self.expiryBuffer
        let clock = self.clock
        let task = Task { [weak self] in
            guard delay > 0 else {
                self?.log("session \(key) has no more than \(Int(Self.expiryBuffer)) seconds left; clearing it")
                await self?.clearSession(for: key)
                return
            }
            do { try await clock.sleep(.milliseconds(Int64(delay * 1000))) } catch { return }
            guard !Task.isCancelled, let self else { return }
            await self.expiryDue(session)
        }
        expiryTasks.withLock { $0.updateValue(task, forKey: key) }?.cancel()
    }

    private func expiryDue(_ session: TurnkeySession) async {
        let key = session.sessionKey
        guard let auth, clock.now() < session.expiresAt else {
            log("session \(key) expired; clearing it")
            return await clearSession(for: key)
        }
        let lifetime = refreshLifetimes.withLock { $0[key] }
        guard autoRefreshSession || lifetime != nil else {
            log("session \(key) is about to expire; clearing it")
            return await clearSession(for: key)
        }
        do {
            log("refreshing session \(key) before it expires")
            try await refresh(auth, sessionKey: key, expirationSeconds: lifetime, invalidateExisting: false)
        } catch {
            log("the automatic refresh of session \(key) failed; clearing it: \(error)")
            await clearSession(for: key)
        }
    }
}
