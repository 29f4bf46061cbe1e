import FoundationEssentials

/// The stored form of a session, shared with Portal's other SDKs:
/// `{"clientSessionToken":…,"endUserId":…}` with the keys sorted.
struct PersistedSession: Codable, Sendable, Equatable {
    let clientSessionToken: String
    let endUserId: String

    func encoded() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Two strings always encode; the fallback only keeps this non-throwing.
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The session in `text`, or nil when it is not the stored shape or either value is blank.
    static func decode(_ text: String) -> PersistedSession? {
        guard let decoded = try? JSONDecoder().decode(PersistedSession.self, from: Data(text.utf8)),
            !decoded.clientSessionToken.isBlank, !decoded.endUserId.isBlank
        else { return nil }
        return decoded
    }

    func makeSession(origin: PortalSession.Origin) -> PortalSession {
        PortalSession(clientSessionToken: clientSessionToken, endUserId: endUserId, origin: origin)
    }
}
