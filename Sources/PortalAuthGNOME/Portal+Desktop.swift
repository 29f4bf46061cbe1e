import FoundationEssentials
import PortalAuth

extension Portal {
    /// A Portal for a session a `PortalAuth` returned (`signInWith*`, `handleRedirect`,
    /// `verifyTotp`, `restoreSession()`), on the API host and auth environment the session came
    /// from, over libsoup: `let portal = try Portal(credentials: authenticated.session)`.
    ///
    /// - Throws: `PortalAuthError.invalidArgument(name: "credentials")` for a session made with
    ///   `PortalSession(clientSessionToken:endUserId:)`, which does not know its API host; use
    ///   `Portal(credentials:apiHost:authEnvironmentId:transport:)` for it.
    public convenience init(credentials: PortalSession) throws {
        try self.init(credentials: credentials, transport: SoupTransport())
    }
}
