import Synchronization

/// What the last accepted grant resolved to, so a redirect delivered twice replays instead of
/// re-sending a grant Portal already spent.
///
/// One slot, not a history: a replay is always of the latest redirect, and keeping older
/// grants (or a TOTP step's user JWT) alive would buy nothing. Keys compare byte for byte.
/// Read and written only while `PortalAuth`'s mutex is held; the lock here just keeps the
/// compiler and the sanitizer honest.
final class ReplaySlot: Sendable {
    struct Grant {
        let token: String
        var result: AuthResult
        /// A session Portal issued whose save has not succeeded yet.
        var pendingSave: PersistedSession?
    }

    /// A TOTP code Portal accepted whose save failed: the same `verifyTotp` call finishes it.
    struct PendingTotp {
        let userJwt: String
        let result: AuthenticatedResult
        let persisted: PersistedSession
    }

    private struct State {
        var grant: Grant?
        var pendingTotp: PendingTotp?
    }

    private let state = Mutex(State())

    func grant(for token: String) -> Grant? {
        state.withLock { state in
            guard let grant = state.grant, grant.token.utf8.elementsEqual(token.utf8) else { return nil }
            return grant
        }
    }

    func remember(token: String, result: AuthResult, pendingSave: PersistedSession?) {
        state.withLock { $0.grant = Grant(token: token, result: result, pendingSave: pendingSave) }
    }

    func pendingTotp(for userJwt: String) -> PendingTotp? {
        state.withLock { state in
            guard let pending = state.pendingTotp, pending.userJwt.utf8.elementsEqual(userJwt.utf8) else { return nil }
            return pending
        }
    }

    /// Records an accepted TOTP code: the grant that led to this step now replays as the
    /// session, and the same user JWT can finish a failed save.
    func completeTotp(userJwt: String, result: AuthenticatedResult, persisted: PersistedSession) {
        state.withLock { state in
            if let grant = state.grant, case .totpRequired(let step) = grant.result,
                step.userJwt.utf8.elementsEqual(userJwt.utf8)
            {
                state.grant = Grant(token: grant.token, result: .authenticated(result), pendingSave: persisted)
            }
            state.pendingTotp = PendingTotp(userJwt: userJwt, result: result, persisted: persisted)
        }
    }

    /// A session reached the store: nothing is pending any more. A pending TOTP save is
    /// dropped too, since it is either this session or older than the one just saved.
    func markSaved() {
        state.withLock { state in
            state.grant?.pendingSave = nil
            state.pendingTotp = nil
        }
    }

    func forgetGrant() {
        state.withLock { $0.grant = nil }
    }

    func forgetPendingTotp() {
        state.withLock { $0.pendingTotp = nil }
    }

    func forgetAll() {
        state.withLock { $0 = State() }
    }

    var isEmpty: Bool {
        state.withLock { $0.grant == nil && $0.pendingTotp == nil }
    }
}
