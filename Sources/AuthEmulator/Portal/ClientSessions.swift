import Foundation

/// A client session the app holds as `pst_…` and presents as a Bearer token.
struct ClientSession {
    let environmentId: String
    let endUserId: String
    let clientId: String
    let isAccountAbstracted: Bool
    let createdAt: Int
}

/// Sessions by the SHA-256 of their token: the token itself is handed out once and kept nowhere,
/// so the saved state (`--state-file`) holds no token a reader could present.
final class SessionRegistry {
    private var sessions: [String: ClientSession] = [:]
    private var order: [String] = []

    func create(for user: EndUser, isAccountAbstracted: Bool, now: Int) -> String {
        let token = "pst_" + Crypto.randomToken(bytes: 32)
        restore(
            tokenDigest: Crypto.sha256Hex(token),
            ClientSession(
                environmentId: user.environmentId, endUserId: user.endUserId,
                clientId: user.clientId, isAccountAbstracted: isAccountAbstracted, createdAt: now))
        return token
    }

    func session(_ token: String) -> ClientSession? { sessions[Crypto.sha256Hex(token)] }

    /// Live sessions with their token digests, oldest first: what the state file keeps.
    var digested: [(tokenDigest: String, session: ClientSession)] {
        order.compactMap { digest in sessions[digest].map { (digest, $0) } }
    }

    /// A saved session back after a restart.
    func restore(tokenDigest: String, _ session: ClientSession) {
        if sessions[tokenDigest] == nil { order.append(tokenDigest) }
        sessions[tokenDigest] = session
    }

    /// Live sessions, oldest first (never with their tokens).
    var all: [ClientSession] { order.compactMap { sessions[$0] } }

    /// Revokes every session, or those of one end user. Returns how many went.
    func revoke(endUserId: String?) -> Int {
        let doomed = order.filter { token in endUserId == nil || sessions[token]?.endUserId == endUserId }
        for token in doomed { sessions[token] = nil }
        order.removeAll { sessions[$0] == nil }
        return doomed.count
    }
}
