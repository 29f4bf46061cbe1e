import FoundationEssentials

extension PortalAuth {
    /// Finishes a sign-in that returned `.totpRequired` with the code the user typed.
    ///
    /// The end user is read from the JWT before anything is sent, so an unreadable JWT never costs
    /// a code (`invalidUserJwt`); its expiry is Portal's to judge, as in PortalSwift (a clock that
    /// runs ahead must not refuse a good code): an expired JWT is a 401. The code is posted as
    /// typed. A wrong code (401) leaves the JWT usable; too many (429) is `rateLimited`. The session
    /// is saved before it is returned; if only the save failed, calling again with the same
    /// `userJwt` finishes the save without a request (`code` is then not used). A sign-out that
    /// overlaps the call wins: the code is not sent and it throws `CancellationError`.
    public func verifyTotp(_ code: String, userJwt: String) async throws -> AuthenticatedResult {
        try await verifyTotp(code, userJwt: userJwt, fenceTicket: signOutFence.ticket())
    }

    /// `fenceTicket`: when the code was asked to be verified, as far as a sign-out is concerned.
    func verifyTotp(_ code: String, userJwt: String, fenceTicket: SignOutFence.Ticket) async throws -> AuthenticatedResult {
        let endUserId = try UserJwt.endUserId(from: userJwt)
        try Task.checkCancellation()
        return try await shieldedFromCancellation {
            try await self.mutex.withLock {
                try await self.verifyTotpLocked(code, userJwt: userJwt, endUserId: endUserId, fenceTicket: fenceTicket)
            }
        }
    }

    private func verifyTotpLocked(
        _ code: String, userJwt: String, endUserId: String, fenceTicket: SignOutFence.Ticket
    ) async throws -> AuthenticatedResult {
        guard !signOutFence.hasOvertaken(fenceTicket) else {
            log("a sign-out overtook this TOTP code; it was not sent")
            throw CancellationError()
        }
        if let pending = replaySlot.pendingTotp(for: userJwt) {
            if pending.result.session.isInvalidated {
                replaySlot.forgetPendingTotp()
                throw PortalRequestsError.unauthorized(path: PortalWire.Path.totpValidations)
            }
            log("the TOTP code was already accepted; retrying the save")
            try await saveSession(pending.persisted)
            return pending.result
        }

        log("verifying a TOTP code")
        let data = try await api.validateTotp(code: code, userJwt: userJwt)
        guard let sessionToken = data.clientSessionToken, !sessionToken.isBlank else {
            throw PortalAuthError.malformedResponse(path: PortalWire.Path.totpValidations, missing: "clientSessionToken")
        }
        let persisted = PersistedSession(clientSessionToken: sessionToken, endUserId: endUserId)
        let result = AuthenticatedResult(
            session: session(for: persisted), clientId: data.clientId, isAccountAbstracted: data.isAccountAbstracted
        )
        // Portal retired the JWT when it answered: remember the session before saving it.
        replaySlot.completeTotp(userJwt: userJwt, result: result, persisted: persisted)
        try await saveSession(persisted)
        return result
    }
}
