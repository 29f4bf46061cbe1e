import FoundationEssentials

extension PortalAuth {
    /// Completes a sign-in from the redirect URL the desktop handed the app. Forwards
    /// `absoluteString`, so percent-encoding stays intact and the grant is decoded once.
    public func handleRedirect(_ url: URL) async throws -> AuthResult? {
        try await handleRedirect(url.absoluteString)
    }

    /// Completes a sign-in from a redirect URL, or returns nil when the URL is not for this
    /// instance (so other handlers can try it).
    ///
    /// In order: empty or longer than 8192 UTF-16 units → nil; not our `redirectUrl` → nil;
    /// `error=` → `authenticationFailed` (before any request, even beside a token); no token →
    /// nil; `authMethod=EMAIL_MAGIC_LINK` → magic-link exchange; `login_type=GOOGLE|APPLE` →
    /// OAuth exchange; anything else → nil. The same URL delivered again replays the first
    /// result (the same `PortalSession` object) instead of re-sending the spent grant. A sign-out
    /// (`clearPersistedSession`) that overlaps the call wins: nothing is sent and it throws `CancellationError`.
    public func handleRedirect(_ url: String) async throws -> AuthResult? {
        try await handleRedirect(url, fenceTicket: signOutFence.ticket())
    }

    /// Completes a sign-in from a redirect `offer` or `incomingRedirect` already parsed: what it
    /// carries is used as found, never parsed again. `error=` → `authenticationFailed`; a grant is
    /// exchanged (or replayed) as `handleRedirect(_:)` does.
    public func handleRedirect(_ incoming: IncomingRedirect) async throws -> AuthResult {
        try await handle(incoming.content, fenceTicket: signOutFence.ticket())
    }

    /// `fenceTicket`: when the redirect was asked for, as far as a sign-out is concerned.
    func handleRedirect(_ url: String, fenceTicket: SignOutFence.Ticket) async throws -> AuthResult? {
        guard let content = parseRedirect(url) else { return nil }
        return try await handle(content, fenceTicket: fenceTicket)
    }

    /// What `url` carries when it is a redirect for this instance: the one parse of a redirect.
    /// Empty or longer than 8192 UTF-16 units, not our `redirectUrl`, or neither `error=` nor a
    /// token with a known route → nil.
    func parseRedirect(_ url: String) -> RedirectContent? {
        guard !url.isEmpty, url.utf16.count <= RedirectURL.maxLength, RedirectURL.matches(url, redirectUrl: redirectUrl) else {
            return nil
        }
        let parameters = RedirectURL.queryParameters(of: url.trimmed)
        if let error = parameters[PortalWire.RedirectQuery.error] {
            let bounded = SecretRedaction.redact(String(error.prefix(RedirectURL.maxErrorLength)))
            return .failure(error: String(bounded.prefix(RedirectURL.maxErrorLength)))
        }
        guard let token = parameters[PortalWire.RedirectQuery.token], !token.isEmpty, let route = GrantRoute(parameters) else {
            return nil
        }
        return .grant(token: token, route: route)
    }

    func handle(_ content: RedirectContent, fenceTicket: SignOutFence.Ticket) async throws -> AuthResult {
        switch content {
        case .failure(let error):
            log("the redirect reported a failed sign-in")
            throw PortalAuthError.authenticationFailed(error: error)
        case .grant(let token, let route):
            // An already-cancelled caller must not spend a single-use grant it no longer wants.
            // Past this point the exchange runs to completion.
            try Task.checkCancellation()
            return try await shieldedFromCancellation {
                try await self.mutex.withLock { try await self.exchangeOrReplay(token: token, route: route, fenceTicket: fenceTicket) }
            }
        }
    }

    /// Called with the mutex held.
    private func exchangeOrReplay(token: String, route: GrantRoute, fenceTicket: SignOutFence.Ticket) async throws -> AuthResult {
        guard !signOutFence.hasOvertaken(fenceTicket) else {
            log("a sign-out overtook this redirect; nothing was exchanged")
            throw CancellationError()
        }
        if let remembered = replaySlot.grant(for: token) {
            return try await replay(remembered, route: route)
        }

        log(route.logLine)
        // A locked keyring asks to be unlocked before the grant is spent: if its prompt is
        // dismissed, nothing was sent and the same redirect can still sign in later.
        do { try await store.unlockForSave() } catch { throw storageFailure(error, doing: "unlock the keyring for") }
        // Exchanges mostly end in a save: connect to the store while the request is in flight.
        store.prepareToSave()
        let grant = try await api.exchange(grant: token, at: route.path)

        if let sessionToken = grant.clientSessionToken, !sessionToken.isBlank {
            guard let endUserId = grant.endUserId, !endUserId.isBlank else {
                throw PortalAuthError.malformedResponse(path: route.path, missing: "endUserId")
            }
            let persisted = PersistedSession(clientSessionToken: sessionToken, endUserId: endUserId)
            let result = AuthenticatedResult(
                session: session(for: persisted), clientId: grant.clientId,
                isAccountAbstracted: grant.isAccountAbstracted
            )
            // Remembered before the save: the grant is spent, so a failed save must leave the
            // re-delivered redirect able to finish it.
            replaySlot.remember(token: token, result: .authenticated(result), pendingSave: persisted)
            endPendingSignIn(answering: route)
            try await saveSession(persisted)
            return .authenticated(result)
        }

        guard let userJwt = grant.userJwt, !userJwt.isBlank else {
            log("the exchange returned neither a session nor a TOTP step")
            throw PortalAuthError.invalidGrantResponse
        }
        let step = TotpRequiredResult(userJwt: userJwt, totpLink: grant.totpLink, endUserId: grant.endUserId ?? "")
        replaySlot.remember(token: token, result: .totpRequired(step), pendingSave: nil)
        endPendingSignIn(answering: route)
        log("a TOTP code is required for end user \(step.endUserId); nothing saved")
        return .totpRequired(step)
    }

    /// Serves a redirect delivered again. A session invalidated since is not handed back
    /// (the same error a spent grant gets), and a save that failed the first time is retried.
    private func replay(_ remembered: ReplaySlot.Grant, route: GrantRoute) async throws -> AuthResult {
        guard case .authenticated(let result) = remembered.result else {
            log("replaying the TOTP step of an already exchanged grant")
            return remembered.result
        }
        if result.session.isInvalidated {
            log("the remembered session was invalidated; forgetting it")
            replaySlot.forgetGrant()
            throw PortalRequestsError.unauthorized(path: route.path)
        }
        if let pending = remembered.pendingSave {
            log("retrying the save of an already exchanged grant")
            try await saveSession(pending)
        } else {
            log("replaying an already exchanged grant")
        }
        return remembered.result
    }
}

/// Which endpoint can exchange a redirect's grant, and for which sign-in method.
enum GrantRoute: Sendable, Equatable {
    case magicLink
    /// A provider Portal offers, from `login_type`.
    case oauth(AuthMethod)

    /// The markers compare byte for byte: Swift's `==` calls canonically equivalent strings equal, and
    /// U+212A KELVIN SIGN is equivalent to "K", so `EMAIL_MAGIC_LIN\u{212A}` would pass for the magic link.
    init?(_ parameters: [String: String]) {
        func marker(_ name: String, is method: AuthMethod) -> Bool {
            parameters[name]?.utf8.elementsEqual(method.rawValue.utf8) == true
        }
        if marker(PortalWire.RedirectQuery.authMethod, is: .emailMagicLink) {
            self = .magicLink
        } else if let provider = AuthMethod.providers.first(where: { marker(PortalWire.RedirectQuery.loginType, is: $0) }) {
            self = .oauth(provider)
        } else {
            return nil
        }
    }

    var method: AuthMethod {
        if case .oauth(let provider) = self { return provider }
        return .emailMagicLink
    }

    var path: String {
        self == .magicLink ? PortalWire.Path.magicLinkValidations : PortalWire.Path.oauthTokens
    }

    var logLine: String {
        self == .magicLink ? "exchanging a magic-link grant" : "exchanging an OAuth grant"
    }
}

/// What a redirect for this instance carries, as its one parse found it.
enum RedirectContent: Sendable, Equatable {
    /// `error=`, bounded and with anything secret-shaped redacted.
    case failure(error: String)
    case grant(token: String, route: GrantRoute)

    var route: GrantRoute? {
        if case .grant(_, let route) = self { return route }
        return nil
    }
}
