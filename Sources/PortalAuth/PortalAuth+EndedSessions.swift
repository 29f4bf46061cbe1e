import FoundationEssentials

extension PortalAuth {
    /// The session `persisted` holds, made by this instance: when it is invalidated, its stored copy
    /// goes too, as long as the store still holds this session and not a newer one.
    func session(for persisted: PersistedSession) -> PortalSession {
        let session = persisted.makeSession(origin: PortalSession.Origin(apiBaseURL: apiBaseURL, authEnvironmentId: authEnvironmentId))
        let token = persisted.clientSessionToken
        session.whenInvalidated { [weak self] in self?.sessionEnded(token: token) }
        return session
    }

    /// Remembers the ended token at once, so a `restoreSession()` that comes next never returns it,
    /// then deletes the stored copy in the background, in turn with the other store operations.
    private func sessionEnded(token: String) {
        endedSessionTokens.withLock { _ = $0.insert(token) }
        Task {
            try? await mutex.withLock { try await self.forgetEndedSessionsLocked() }
        }
    }

    /// Deletes the stored session when it is one that ended. Called with the mutex held.
    func forgetEndedSessionsLocked() async throws {
        // A session may end while the store is read: only the tokens known now are settled here.
        let ended = endedSessionTokens.withLock { $0 }
        guard !ended.isEmpty else { return }
        let stored: String?
        do {
            stored = try await store.load(authEnvironmentId: authEnvironmentId)
        } catch {
            throw storageFailure(error, doing: "read")
        }
        if let token = stored.flatMap(PersistedSession.decode)?.clientSessionToken, ended.contains(token) {
            try await deleteEndedSession()
            return
        }
        // What is stored is none of them: they cannot come back.
        endedSessionTokens.withLock { $0.subtract(ended) }
    }

    /// True when the session with `token` was invalidated in this process.
    func hasEnded(_ token: String) -> Bool {
        endedSessionTokens.withLock { $0.contains(token) }
    }

    /// Deletes the stored session, which ended. Called with the mutex held.
    func deleteEndedSession() async throws {
        do {
            try await store.delete(authEnvironmentId: authEnvironmentId)
        } catch {
            throw storageFailure(error, doing: "delete")
        }
        // Nothing is stored now: no ended session is left to delete.
        endedSessionTokens.withLock { $0.removeAll() }
        log("the stored session was invalidated; deleted it")
    }
}
