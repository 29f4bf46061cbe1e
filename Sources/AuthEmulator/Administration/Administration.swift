import AuthBase
import Foundation

/// What tests and people use to see and steer the emulator: the administration API and the admin
/// token it asks for, the dashboard and its key, injected faults, the clock and the request log.
final class Administration {
    /// What the administration API asks for; kept across resets.
    let adminToken: AdminToken
    /// What opens the dashboard, and nothing else; kept across resets.
    let dashboardKey: DashboardKey
    let context: EmulatorContext
    let portal: PortalBackend
    let turnkey: TurnkeyBackend
    let identityProviders: IdentityProviders
    private(set) var requests = RequestLog()
    private(set) var faults = FaultQueue()

    init(
        adminToken: AdminToken, dashboardKey: DashboardKey, context: EmulatorContext, portal: PortalBackend,
        turnkey: TurnkeyBackend, identityProviders: IdentityProviders
    ) {
        self.adminToken = adminToken
        self.dashboardKey = dashboardKey
        self.context = context
        self.portal = portal
        self.turnkey = turnkey
        self.identityProviders = identityProviders
    }

    /// Back to a fresh start: users re-seeded (new TOTP secrets), everything issued forgotten (Turnkey's
    /// sub-organizations, sessions, activities and codes too), clock real. Signing keys stay.
    func reset() {
        context.clock.reset()
        portal.reset()
        turnkey.reset()
        identityProviders.reset()
        requests = RequestLog()
        faults = FaultQueue()
    }

    var now: Int { context.now }
    var baseURL: String { context.baseURL }

    // MARK: the gate

    /// `http://127.0.0.1:PORT/dashboard/KEY/`: the dashboard's address for a person.
    var dashboardURL: String { baseURL + dashboardKey.path }

    /// The paths only the emulator's owner may use: the admin API, the dashboard at `/` and under
    /// `/dashboard/` (it shows TOTP codes and magic links), and whatever is not yet a route there.
    static func isGated(_ path: String) -> Bool {
        path.hasPrefix("/emulator/") || path == "/" || path.hasPrefix(DashboardKey.pathPrefix)
    }

    /// The admin API and the dashboard answer only their owner, from no web page of another origin.
    /// The admin API and `/` take `Authorization: Bearer ADMIN_TOKEN`, nothing else (no cookie, no
    /// query); under `/dashboard/` only the run's dashboard path opens, and the admin token does not.
    /// A refusal says nothing: 401 with an empty body. Nil: the request may pass.
    func gate(_ request: EmulatorRequest) -> EmulatorResponse? {
        let scheme = baseURL.hasPrefix("https:") ? "https" : "http"
        let origins = ["127.0.0.1", "localhost", "[::1]"].map { "\(scheme)://\($0):\(context.port)" }
        if let origin = request.header("origin"), !origins.contains(origin.lowercased()) {
            return .error(403, "The emulator's dashboard and administration API do not answer web pages from other origins.")
        }
        if request.path.hasPrefix(DashboardKey.pathPrefix) {
            return dashboardKey.opens(request.path) ? nil : Self.unauthorized
        }
        return adminToken.matches(request.bearerToken) ? nil : Self.unauthorized
    }

    private static var unauthorized: EmulatorResponse {
        EmulatorResponse(
            status: 401, contentType: nil, body: Data(),
            headers: [("WWW-Authenticate", "Bearer realm=\"portal-auth-emulator\""), ("Cache-Control", "no-store")])
    }

    static func isoDate(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
