import AuthBase
import Foundation

/// What tests and people use to see and steer the emulator: the administration API, the dashboard,
/// the admin token both ask for, injected faults, the clock and the request log.
final class Administration {
    /// What the administration API and the dashboard ask for; kept across resets.
    let adminToken: AdminToken
    let context: EmulatorContext
    let portal: PortalBackend
    let turnkey: TurnkeyBackend
    let identityProviders: IdentityProviders
    private(set) var requests = RequestLog()
    private(set) var faults = FaultQueue()

    init(
        adminToken: AdminToken, context: EmulatorContext, portal: PortalBackend, turnkey: TurnkeyBackend,
        identityProviders: IdentityProviders
    ) {
        self.adminToken = adminToken
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

    /// The cookie the dashboard keeps the token in. Browsers share cookies among a host's ports, so
    /// the name carries the port: two emulators on one computer do not overwrite each other's.
    var cookieName: String { "portal-auth-emulator-\(context.port)" }

    /// The admin API and the dashboard answer only their owner, from no web page of another origin.
    /// The admin API takes `Authorization: Bearer TOKEN`; the dashboard takes that, its cookie, or
    /// `?token=TOKEN` once, which it turns into the cookie and a redirect to the URL without it.
    /// A refusal says nothing: 401 with an empty body. Nil: the request may pass.
    func gate(_ request: EmulatorRequest) -> EmulatorResponse? {
        let scheme = baseURL.hasPrefix("https:") ? "https" : "http"
        let origins = ["127.0.0.1", "localhost", "[::1]"].map { "\(scheme)://\($0):\(context.port)" }
        if let origin = request.header("origin"), !origins.contains(origin.lowercased()) {
            return .error(403, "The emulator's dashboard and administration API do not answer web pages from other origins.")
        }
        if request.path == "/", let offered = request.query["token"] {
            guard adminToken.matches(offered) else { return Self.unauthorized }
            return EmulatorResponse(
                status: 303, contentType: nil, body: Data(),
                headers: [
                    ("Location", "/"), ("Cache-Control", "no-store"), ("Referrer-Policy", "no-referrer"),
                    ("Set-Cookie", "\(cookieName)=\(adminToken.value); Path=/; HttpOnly; SameSite=Strict")
                ])
        }
        if adminToken.matches(request.bearerToken) { return nil }
        if request.path == "/", adminToken.matches(request.cookie(cookieName)) { return nil }
        return Self.unauthorized
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
