import AuthBase
import Foundation

/// What the server glue should do with a request.
enum RequestOutcome {
    case respond(EmulatorResponse)
    /// Hold the request `seconds`, then answer with whatever `respond` returns then; `abandoned`
    /// instead if the client goes away first (the request is then never handled).
    case hold(seconds: Int, respond: () -> EmulatorResponse, abandoned: () -> Void)
    /// Close the connection without answering.
    case drop
}

extension Emulator {
    private typealias Handler = (EmulatorRequest) throws -> EmulatorResponse

    /// Entry point for every request: size limit, injected faults, routing, request log.
    func handle(_ request: EmulatorRequest) -> RequestOutcome {
        let isAdmin = request.path.hasPrefix("/emulator/")
        let log = { (status: Int) in if !isAdmin { self.requests.record(method: request.method, path: request.path, status: status) } }

        if let refusal = hostRefusal(request) {
            log(refusal.status)
            return .respond(refusal)
        }
        guard request.body.count <= Self.maxBodyBytes else {
            log(413)
            return .respond(.error(413, "Request body is larger than 64 KiB.", path: request.path))
        }
        if !isAdmin, let fault = faults.take(path: request.path) {
            switch fault.kind {
            case .status:
                log(fault.status)
                return .respond(.error(fault.status, "Injected fault: \(fault.status) from the emulator.", path: request.path))
            case .hang:
                return .hold(seconds: fault.seconds, respond: {
                    let response = self.route(request)
                    log(response.status)
                    return response
                }, abandoned: { log(0) })
            case .drop:
                _ = route(request)   // the work is committed, the answer never arrives
                log(0)
                return .drop
            case .pending:
                var pendingRequest = request
                pendingRequest.pendingActivityReads = fault.pendingAnswers
                let response = route(pendingRequest)
                log(response.status)
                return .respond(response)
            }
        }
        let response = route(request)
        log(response.status)
        return .respond(response)
    }

    func route(_ request: EmulatorRequest) -> EmulatorResponse {
        // The dashboard shows TOTP codes and magic links: it is as private as the admin API, even
        // where the path is not one (nothing about the administration answers a stranger).
        if request.path.hasPrefix("/emulator/") || request.path == "/", let answer = adminGate(request) { return answer }
        guard let handlers = handlers(for: request.path) else {
            return .error(404, "No such endpoint: \(request.path)", path: request.path)
        }
        guard let handler = handlers[request.method] else {
            var response = EmulatorResponse.error(405, "\(request.method) is not allowed on \(request.path).", path: request.path)
            response.headers.append(("Allow", handlers.keys.sorted().joined(separator: ", ")))
            return response
        }
        do {
            return try handler(request)
        } catch let error as ResponseError {
            return error.response
        } catch let error as TurnkeyError {
            return error.response
        } catch {
            return .error(500, "Internal emulator error.")
        }
    }

    private func handlers(for path: String) -> [String: Handler]? {
        switch path {
        case "/": return ["GET": dashboard]
        case PortalWire.Path.methods: return ["GET": getMethods]
        case PortalWire.Path.oauthUrls: return ["GET": getOAuthURLs]
        case PortalWire.Path.oauthTokens: return ["POST": exchangeOAuthGrant]
        case PortalWire.Path.totpValidations: return ["POST": validateTotp]
        case PortalWire.Path.magicLinks: return ["POST": sendMagicLink]
        case PortalWire.Path.magicLinkValidations: return ["POST": validateMagicLink]
        case PortalWire.Path.clientsMe: return ["GET": getClient]
        // Google's and Apple's pages serve both backends, told apart by the client ID.
        case "/idp/google/authorize":
            return ["GET": { self.isTurnkeyClient(.google, $0.query) ? self.showTurnkeyProviderPage(.google, $0) : self.showProviderPage(.google, $0) },
                    "POST": { self.isTurnkeyClient(.google, $0.form) ? self.submitTurnkeyProviderPage(.google, $0) : self.submitGooglePage($0) }]
        case "/idp/apple/authorize":
            return ["GET": { self.isTurnkeyClient(.apple, $0.query) ? self.showTurnkeyProviderPage(.apple, $0) : self.showProviderPage(.apple, $0) },
                    "POST": { self.submitTurnkeyProviderPage(.apple, $0) }]
        case "/idp/discord/authorize":
            return ["GET": { self.showTurnkeyProviderPage(.discord, $0) }, "POST": { self.submitTurnkeyProviderPage(.discord, $0) }]
        case "/idp/x/authorize":
            return ["GET": { self.showTurnkeyProviderPage(.x, $0) }, "POST": { self.submitTurnkeyProviderPage(.x, $0) }]
        case OIDCTokens.KeyFamily.identityProviders.jwksPath: return ["GET": { _ in self.serveJWKS(.identityProviders) }]
        case OIDCTokens.KeyFamily.turnkey.jwksPath: return ["GET": { _ in self.serveJWKS(.turnkey) }]
        case TurnkeyWire.EmulatorPath.oauthOrigin: return ["GET": showOAuthOrigin]
        case TurnkeyWire.EmulatorPath.oauthRedirect: return ["GET": showOAuthRedirect]
        case Self.authProxy(TurnkeyWire.AuthProxyPath.walletKitConfig): return ["POST": walletKitConfig]
        case Self.authProxy(TurnkeyWire.AuthProxyPath.account): return ["POST": account]
        case Self.authProxy(TurnkeyWire.AuthProxyPath.oauth2Authenticate): return ["POST": oauth2Authenticate]
        case Self.authProxy(TurnkeyWire.AuthProxyPath.oauthLogin): return ["POST": oauthLogin]
        case Self.authProxy(TurnkeyWire.AuthProxyPath.signup): return ["POST": signup]
        case Self.turnkeyAPI(TurnkeyWire.APIPath.whoami): return ["POST": whoami]
        case Self.turnkeyAPI(TurnkeyWire.APIPath.getUser): return ["POST": getUser]
        case Self.turnkeyAPI(TurnkeyWire.APIPath.stampLogin): return ["POST": stampLogin]
        case Self.turnkeyAPI(TurnkeyWire.APIPath.getActivity): return ["POST": getActivity]
        case "/emulator/v1/reset": return ["POST": adminReset]
        case "/emulator/v1/state": return ["GET": adminState]
        case "/emulator/v1/outbox": return ["GET": adminOutbox]
        case "/emulator/v1/requests": return ["GET": adminRequests]
        case "/emulator/v1/clock": return ["GET": adminClock, "POST": adminClock]
        case "/emulator/v1/faults": return ["GET": adminFaults, "POST": adminFaults]
        case "/emulator/v1/sessions/revoke": return ["POST": adminRevokeSessions]
        case TurnkeyWire.EmulatorPath.admin: return ["GET": adminTurnkey]
        default: break
        }
        let callbackPrefix = PortalWire.Path.oauthCallbackPrefix
        if path.hasPrefix(callbackPrefix) {
            let environmentId = String(path.dropFirst(callbackPrefix.count))
            guard !environmentId.isEmpty, !environmentId.contains("/") else { return nil }
            return ["GET": { self.googleCallback(environmentId: environmentId, $0) },
                    "POST": { self.appleCallback(environmentId: environmentId, $0) }]
        }
        let environmentsPrefix = "/emulator/v1/environments/"
        if path.hasPrefix(environmentsPrefix), path.count > environmentsPrefix.count {
            let id = String(path.dropFirst(environmentsPrefix.count))
            return ["POST": { try self.adminEnvironment(id: id, $0) }]
        }
        let usersPrefix = "/emulator/v1/users/", totpSuffix = "/totp"
        if path.hasPrefix(usersPrefix), path.hasSuffix(totpSuffix), path.count > usersPrefix.count + totpSuffix.count {
            let email = String(path.dropFirst(usersPrefix.count).dropLast(totpSuffix.count))
            return ["GET": { try self.adminUserTotp(email: email, $0) }]
        }
        return nil
    }

    static func authProxy(_ path: String) -> String { TurnkeyWire.EmulatorPath.authProxyBase + path }
    static func turnkeyAPI(_ path: String) -> String { TurnkeyWire.EmulatorPath.apiBase + path }

    /// Every path answers only requests addressed to a loopback name, as a real service answers only
    /// its own: a DNS-rebinding page reaches 127.0.0.1 under a host name of its own choosing.
    private func hostRefusal(_ request: EmulatorRequest) -> EmulatorResponse? {
        guard let host = request.header("host")?.lowercased() else { return nil }
        let names = ["127.0.0.1", "localhost", "[::1]"]
        guard !(names + names.map { "\($0):\(port)" }).contains(host) else { return nil }
        return .error(403, "The emulator only answers requests addressed to 127.0.0.1, localhost or [::1].", path: request.path)
    }

    /// The port `baseURL` names.
    private var port: String { baseURL.split(separator: ":").last.map(String.init) ?? "" }

    /// The cookie the dashboard keeps the token in. Browsers share cookies among a host's ports, so
    /// the name carries the port: two emulators on one computer do not overwrite each other's.
    var adminCookieName: String { "portal-auth-emulator-\(port)" }

    /// The admin API and the dashboard answer only their owner, from no web page of another origin.
    /// The admin API takes `Authorization: Bearer TOKEN`; the dashboard takes that, its cookie, or
    /// `?token=TOKEN` once, which it turns into the cookie and a redirect to the URL without it.
    /// A refusal says nothing: 401 with an empty body.
    private func adminGate(_ request: EmulatorRequest) -> EmulatorResponse? {
        let scheme = baseURL.hasPrefix("https:") ? "https" : "http"
        let origins = ["127.0.0.1", "localhost", "[::1]"].map { "\(scheme)://\($0):\(port)" }
        if let origin = request.header("origin"), !origins.contains(origin.lowercased()) {
            return .error(403, "The emulator's dashboard and administration API do not answer web pages from other origins.")
        }
        if request.path == "/", let offered = request.query["token"] {
            guard adminToken.matches(offered) else { return Self.unauthorized }
            return EmulatorResponse(status: 303, contentType: nil, body: Data(), headers: [
                ("Location", "/"), ("Cache-Control", "no-store"), ("Referrer-Policy", "no-referrer"),
                ("Set-Cookie", "\(adminCookieName)=\(adminToken.value); Path=/; HttpOnly; SameSite=Strict"),
            ])
        }
        if adminToken.matches(request.bearerToken) { return nil }
        if request.path == "/", adminToken.matches(request.cookie(adminCookieName)) { return nil }
        return Self.unauthorized
    }

    private static var unauthorized: EmulatorResponse {
        EmulatorResponse(status: 401, contentType: nil, body: Data(),
                         headers: [("WWW-Authenticate", "Bearer realm=\"portal-auth-emulator\""), ("Cache-Control", "no-store")])
    }
}
