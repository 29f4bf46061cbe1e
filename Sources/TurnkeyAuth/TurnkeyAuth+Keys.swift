import FoundationEssentials

extension TurnkeyAuth {
    /// A new P-256 key pair, its private key kept in the key store: the SDK's `createKeyPair`. Returns
    /// the compressed public key (lower-case hex). Run your own OIDC flow with `nonce` set to the
    /// key's nonce (`nonce(forPublicKey:)`, the lower-case hex SHA-256 of this string), then pass the
    /// token and this key to `completeOAuth`: it accepts a token only when its nonce is this key's.
    public func createKeyPair() async throws -> String {
        let pair = try newKeyPair()
        try await mutex.withLock { try await self.saveKey(pair) }
        log("created key \(pair.publicKeyHex) for a sign-in of the caller's own")
        return pair.publicKeyHex
    }

    /// The nonce an OIDC token must carry to be used with `publicKey`: the lower-case hex SHA-256 of
    /// the key's hex string, as Turnkey computes it.
    public func nonce(forPublicKey publicKey: String) throws -> String {
        Nonce.of(publicKeyHex: try Self.publicKey(publicKey), crypto: crypto)
    }

    /// Stores a session JWT Turnkey issued (for example through your own backend) under
    /// `sessionKey`, as the SDK's `storeSession(jwt:sessionKey:)`: only when its `public_key` is a key
    /// kept here (`keyNotFound`), the session key is free (`keyAlreadyExists`) and it has not expired
    /// (`sessionExpired`). The JWT's signature is not checked, as in the SDK; every stamped request is.
    @discardableResult
    public func storeSession(jwt: String, sessionKey: String? = nil) async throws -> TurnkeySession {
        let key = try resolvedSessionKey(sessionKey)
        guard let token = jwt.nonBlank else { throw TurnkeyAuthError.invalidArgument(name: "jwt") }
        let session: TurnkeySession
        do {
            session = try TurnkeySession(jwt: token, sessionKey: key)
        } catch {
            throw TurnkeyAuthError.invalidArgument(name: "jwt")
        }
        guard !session.isExpired(at: clock.now()) else { throw TurnkeyAuthError.sessionExpired(sessionKey: key) }
        return try await mutex.withLock {
            try await self.requireFreeSessionKey(key)
            _ = try await self.loadSigningKey(publicKey: session.publicKey)
            let stored = try await self.saveSession(token, sessionKey: key, boundTo: session.publicKey, from: "storeSession")
            self.log("session \(key) stored for user \(stored.userId)")
            return stored
        }
    }
}
