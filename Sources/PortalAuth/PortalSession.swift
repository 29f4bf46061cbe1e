import FoundationEssentials
import Synchronization

/// A signed-in session: the client session token in memory, and the end user it belongs to.
/// `invalidate()` drops the token for good; the end user stays readable for sign-out UI.
/// `description` never shows the token.
public final class PortalSession: Sendable, CustomStringConvertible {
    public let endUserId: String
    private let token: Mutex<String?>

    public init(clientSessionToken: String, endUserId: String) {
        self.token = Mutex(clientSessionToken)
        self.endUserId = endUserId
    }

    /// The client session token, or `PortalCredentialError.sessionInvalidated` after `invalidate()`.
    public func getToken() throws -> String {
        guard let token = token.withLock({ $0 }) else { throw PortalCredentialError.sessionInvalidated }
        return token
    }

    /// Ends this session in this process. Idempotent.
    public func invalidate() {
        token.withLock { $0 = nil }
    }

    public var isInvalidated: Bool {
        token.withLock { $0 == nil }
    }

    public var description: String {
        "PortalSession(endUserId: \(endUserId), token: \(SecretRedaction.placeholder)\(isInvalidated ? ", invalidated" : ""))"
    }
}
