import FoundationEssentials

extension PortalAuth {
    /// The session saved by an earlier run (or an earlier sign-in of this one), or nil: "show the
    /// sign-in screen". No network: a restored token is worth trying, and the first 401 from Portal
    /// (`Portal`, `PortalClient`) ends it. An entry that cannot be read is deleted and reads as nil,
    /// and so does a session that was invalidated (`PortalSession.invalidate()`), whose stored copy
    /// is deleted. A store that cannot be read throws `sessionStorageFailure`.
    public func restoreSession() async throws -> PortalSession? {
        try await mutex.withLock {
            let stored: String?
            do {
                stored = try await self.store.load(authEnvironmentId: self.authEnvironmentId)
            } catch {
                throw self.storageFailure(error, doing: "read")
            }
            guard let stored else {
                self.log("no stored session")
                return nil
            }
            guard let persisted = PersistedSession.decode(stored) else {
                self.log("the stored session could not be read; deleting it")
                do {
                    try await self.store.delete(authEnvironmentId: self.authEnvironmentId)
                } catch {
                    throw self.storageFailure(error, doing: "delete")
                }
                return nil
            }
            if self.hasEnded(persisted.clientSessionToken) {
                try await self.deleteEndedSession()
                return nil
            }
            self.log("restored the session for end user \(persisted.endUserId)")
            return self.session(for: persisted)
        }
    }

    /// Signs out on this device: deletes the stored session and forgets the replay slot and any
    /// pending TOTP save, so neither a re-delivered redirect nor a repeated `verifyTotp` can
    /// bring the session back. Waits for a running exchange to finish first; one that was still
    /// queued, or asked for while this runs, gives up without sending anything (`CancellationError`).
    /// A browser sign-in still waiting for its redirect ends (`.closed`). Portal has no revoke
    /// endpoint, so a `PortalClient` already holding the session keeps it.
    public func clearPersistedSession() async throws {
        browserSignIns.session?.close()
        signOutFence.signOutBegan()
        defer { signOutFence.signOutEnded() }
        try await mutex.withLock {
            // Forgotten even if the delete fails: the person asked to sign out.
            self.replaySlot.forgetAll()
            do {
                try await self.store.delete(authEnvironmentId: self.authEnvironmentId)
            } catch {
                throw self.storageFailure(error, doing: "delete")
            }
            self.endedSessionTokens.withLock { $0.removeAll() }
            self.log("stored session cleared")
        }
    }

    /// Saves `persisted` and marks the replay slot as saved. Called with the mutex held.
    func saveSession(_ persisted: PersistedSession) async throws {
        do {
            try await store.save(persisted.encoded(), authEnvironmentId: authEnvironmentId)
        } catch {
            throw storageFailure(error, doing: "save")
        }
        replaySlot.markSaved()
        // The new session replaced whatever was stored: no ended one is left to delete.
        endedSessionTokens.withLock { $0.removeAll() }
        log("session saved for end user \(persisted.endUserId)")
    }

    /// Any store failure, as `sessionStorageFailure` carrying which failure it was.
    func storageFailure(_ error: any Error, doing action: String) -> PortalAuthError {
        let failure = Self.storageFailure(from: error)
        log("could not \(action) the session: \(Self.storeFailure(failure))")
        return failure
    }

    /// The store's own failure inside a `sessionStorageFailure`, for the log line.
    static func storeFailure(_ error: PortalAuthError) -> String {
        if case .sessionStorageFailure(let failure) = error { return failure.description }
        return error.description
    }

    /// The store's detail is redacted here, not only in descriptions: the CLI and the app show it.
    static func storageFailure(from error: any Error) -> PortalAuthError {
        if let failure = error as? PortalAuthError, case .sessionStorageFailure = failure { return failure }
        if let storeError = error as? SessionStoreError {
            return .sessionStorageFailure(SessionStoreError(storeError.kind, detail: SecretRedaction.redact(storeError.detail)))
        }
        return .sessionStorageFailure(SessionStoreError(.other, detail: SecretRedaction.redact(String(describing: error))))
    }
}
