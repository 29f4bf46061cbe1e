import FoundationEssentials

/// A sign-in the app started and has not finished: what its redirect must match and what finishing
/// it needs. Kept in the store for an hour (`lifetime`), so a `login-url` in one process can be
/// finished by a `handle-redirect` in another. The private key is not in here: it waits in the key
/// store under `publicKey`.
struct TurnkeyPendingSignInRecord: Codable, Sendable, Equatable {
    /// As long as the SDK keeps a new key pending.
    static let lifetime: TimeInterval = 3600

    let state: String
    let provider: TurnkeyProvider
    let publicKey: String
    let clientId: String
    let redirectUri: String
    /// Discord and X only. A secret, like the private key.
    let codeVerifier: String?
    /// Seconds since 1970.
    let createdAt: Int
    /// The redirect was taken with `onOAuthSuccess`: the state is spent, the key waits for
    /// `completeOAuth` until the hour is over.
    var redeemed: Bool = false

    func isExpired(at now: Date) -> Bool {
        now.timeIntervalSince1970 >= Double(createdAt) + Self.lifetime
    }

    func encoded() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, an enum, an integer and a flag always encode; the fallback keeps this non-throwing.
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The record in `text`, or nil when it is not the stored shape.
    static func decode(_ text: String) -> TurnkeyPendingSignInRecord? {
        try? JSONDecoder().decode(TurnkeyPendingSignInRecord.self, from: Data(text.utf8))
    }
}

/// Where pending sign-ins wait between processes (GNOME Keyring in the app and CLI, memory in unit
/// tests), one item per Auth Proxy config and `state`. Stores the text the core hands it; the core
/// owns the format. Failures are `SessionStoreError`s.
public protocol TurnkeyPendingSignInStore: Sendable {
    /// The record kept under this `state`, or nil when there is none.
    func load(authProxyConfigId: String, state: String) async throws -> String?
    /// Creates or replaces; returns once the record is durably kept.
    func save(_ record: String, authProxyConfigId: String, state: String) async throws
    /// Removing nothing is not an error.
    func delete(authProxyConfigId: String, state: String) async throws
    /// Every record of this config, by state.
    func all(authProxyConfigId: String) async throws -> [String: String]
}
