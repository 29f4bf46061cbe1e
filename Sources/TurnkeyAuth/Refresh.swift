import FoundationEssentials

extension TurnkeyAuth {
    static let completedStatus = "ACTIVITY_STATUS_COMPLETED"
    static let finalFailureStatuses: Set<String> = ["ACTIVITY_STATUS_FAILED", "ACTIVITY_STATUS_REJECTED"]
    /// As the SDK polls a pending activity: every second, three times.
    static let activityPolls = 3
    static let activityPollInterval = Duration.seconds(1)

    /// Replaces the session under `sessionKey` with a new one on a new key, as the SDK refreshes:
    /// `stamp_login` stamped with the old key, asking for `expirationSeconds` (default: the
    /// configuration's, else `wallet_kit_config`'s, else 900) for the new key's public key. The new
    /// session is stored under the same session key before the old key is deleted.
    ///
    /// An expired session cannot be refreshed (`sessionExpired`; it is ended). When Turnkey refuses
    /// the old session (401) it is ended too, as the SDK clears a session whose refresh failed; a
    /// network failure leaves it as it was.
    ///
    /// `invalidateExisting` asks Turnkey to end the user's other sessions (default `false`, as the SDK's).
    @discardableResult
    public func refreshSession(
        sessionKey: String? = nil, expirationSeconds: String? = nil, invalidateExisting: Bool = false
    ) async throws -> TurnkeySession {
        let key = try resolvedSessionKey(sessionKey)
        if let expirationSeconds, !(Int(expirationSeconds).map { $0 > 0 } ?? false) {
            throw TurnkeyAuthError.invalidArgument(name: "expirationSeconds")
        }
        let lifetime = await sessionExpirationSeconds()
        try Task.checkCancellation()
        return try await shieldedFromCancellation {
            try await self.mutex.withLock {
                try await self.refreshLocked(
                    sessionKey: key, expirationSeconds: expirationSeconds ?? lifetime, invalidateExisting: invalidateExisting)
            }
        }
    }

    /// Called with the mutex held.
    private func refreshLocked(sessionKey: String, expirationSeconds: String, invalidateExisting: Bool) async throws -> TurnkeySession {
        let (old, oldKey) = try await signingSession(sessionKey)
        let pair = try newKeyPair()
        try await saveKey(pair)
        do {
            let request = TurnkeyWire.StampLoginRequest(
                timestampMs: String(Int64(clock.now().timeIntervalSince1970 * 1000)), organizationId: old.organizationId,
                parameters: .init(
                    expirationSeconds: expirationSeconds, invalidateExisting: invalidateExisting, publicKey: pair.publicKeyHex))
            log("refreshing session \(sessionKey) onto key \(pair.publicKeyHex)")
            let jwt = try await stampLoginSession(request, organizationId: old.organizationId, key: oldKey)
            let session = try await saveSession(
                jwt, sessionKey: sessionKey, boundTo: pair.publicKeyHex, from: TurnkeyWire.APIPath.stampLogin)
            replay.forget(sessionKey: sessionKey)
            await bestEffort("delete the replaced key") { try await self.deleteKeyIfUnused(old.publicKey) }
            log("session \(sessionKey) refreshed until \(session.expiresAt)")
            return session
        } catch {
            await bestEffort("delete the unused new key") {
                try await self.stored(.key, "delete", { try await self.stores.keys.delete(publicKey: pair.publicKeyHex) })
            }
            if case TurnkeyRequestError.unauthorized? = error as? TurnkeyRequestError {
                log("Turnkey refused session \(sessionKey); ending it")
                await bestEffort("end the refused session") { try await self.endSession(old) }
            }
            throw error
        }
    }

    /// Submits the stamp login and waits (briefly) for the activity to complete; the new session JWT.
    private func stampLoginSession(
        _ request: TurnkeyWire.StampLoginRequest, organizationId: String,
        key: SigningKey
    ) async throws -> String {
        var activity = try await api.stampLogin(request, key: key)
        var path = TurnkeyWire.APIPath.stampLogin
        var polls = 0
        while true {
            guard let status = activity.status else { throw TurnkeyAuthError.malformedResponse(path: path, missing: "activity.status") }
            if status == Self.completedStatus { break }
            if Self.finalFailureStatuses.contains(status) { throw TurnkeyAuthError.activityFailed(status: status) }
            guard polls < Self.activityPolls else { throw TurnkeyAuthError.activityNotCompleted(status: status) }
            guard let activityId = activity.activityId?.nonBlank else {
                throw TurnkeyAuthError.malformedResponse(path: path, missing: "activity.id")
            }
            polls += 1
            try await clock.sleep(Self.activityPollInterval)
            path = TurnkeyWire.APIPath.getActivity
            activity = try await api.getActivity(organizationId: organizationId, activityId: activityId, key: key)
        }
        guard let jwt = activity.stampLoginSession?.nonBlank else {
            throw TurnkeyAuthError.malformedResponse(path: path, missing: "activity.result.stampLoginResult.session")
        }
        return jwt
    }
}
