import Foundation

/// A client session the app holds as `pst_…` and presents as a Bearer token.
struct ClientSession {
    let environmentId: String
    let endUserId: String
    let clientId: String
    let isAccountAbstracted: Bool
    let createdAt: Int
}

final class SessionRegistry {
    private var sessions: [String: ClientSession] = [:]
    private var order: [String] = []

    func create(for user: EndUser, isAccountAbstracted: Bool, now: Int) -> String {
        let token = "pst_" + Crypto.randomToken(bytes: 32)
        sessions[token] = ClientSession(
            environmentId: user.environmentId, endUserId: user.endUserId,
            clientId: user.clientId, isAccountAbstracted: isAccountAbstracted, createdAt: now)
        order.append(token)
        return token
    }

    func session(_ token: String) -> ClientSession? { sessions[token] }

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
