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

/// Sends every request to the part of the emulator that plays its path, after the checks every path
/// shares (the Host name, the body size, the administration's gate, injected faults), and logs it.
final class Router {
    private typealias Handler = (EmulatorRequest) throws -> EmulatorResponse

    private let context: EmulatorContext
    private let portal: PortalBackend
    private let turnkey: TurnkeyBackend
    private let identityProviders: IdentityProviders
    private let administration: Administration

    init(
        context: EmulatorContext, portal: PortalBackend, turnkey: TurnkeyBackend, identityProviders: IdentityProviders,
        administration: Administration
    ) {
        self.context = context
        self.portal = portal
        self.turnkey = turnkey
        self.identityProviders = identityProviders
        self.administration = administration
    }

    /// Entry point for every request: size limit, injected faults, routing, request log.
    func handle(_ request: EmulatorRequest) -> RequestOutcome {
        let isAdmin = request.path.hasPrefix("/emulator/")
        let log = { (status: Int) in
            if !isAdmin { self.administration.requests.record(method: request.method, path: request.path, status: status) }
        }

        if let refusal = hostRefusal(request) {
            log(refusal.status)
            return .respond(refusal)
        }
        guard request.body.count <= Emulator.maxBodyBytes else {
            log(413)
            return .respond(.error(413, "Request body is larger than 64 KiB.", path: request.path))
        }
        if !isAdmin, let fault = administration.faults.take(path: request.path) {
            switch fault.kind {
            case .status:
                log(fault.status)
                return .respond(.error(fault.status, "Injected fault: \(fault.status) from the emulator.", path: request.path))
            case .hang:
                return .hold(
                    seconds: fault.seconds,
                    respond: {
                        let response = self.route(request)
                        log(response.status)
                        return response
                    }, abandoned: { log(0) })
            case .drop:
                _ = route(request) // the work is committed, the answer never arrives
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

    private func route(_ request: EmulatorRequest) -> EmulatorResponse {
        // The dashboard shows TOTP codes and magic links: it is as private as the admin API, even
        // where the path is not one (nothing about the administration answers a stranger).
        if Administration.isGated(request.path), let answer = administration.gate(request) { return answer }
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
        case "/": return ["GET": administration.dashboard]
        case PortalWire.Path.methods: return ["GET": portal.getMethods]
        case PortalWire.Path.oauthUrls: return ["GET": portal.getOAuthURLs]
        case PortalWire.Path.oauthTokens: return ["POST": portal.exchangeOAuthGrant]
        case PortalWire.Path.totpValidations: return ["POST": portal.validateTotp]
        case PortalWire.Path.magicLinks: return ["POST": portal.sendMagicLink]
        case PortalWire.Path.magicLinkValidations: return ["POST": portal.validateMagicLink]
        case PortalWire.Path.clientsMe: return ["GET": portal.getClient]
        case OIDCTokens.KeyFamily.identityProviders.jwksPath: return ["GET": { _ in self.context.serveJWKS(.identityProviders) }]
        case OIDCTokens.KeyFamily.turnkey.jwksPath: return ["GET": { _ in self.context.serveJWKS(.turnkey) }]
        case TurnkeyWire.EmulatorPath.oauthOrigin: return ["GET": turnkey.showOAuthOrigin]
        case TurnkeyWire.EmulatorPath.oauthRedirect: return ["GET": turnkey.showOAuthRedirect]
        case TurnkeyBackend.authProxy(TurnkeyWire.AuthProxyPath.walletKitConfig): return ["POST": turnkey.walletKitConfig]
        case TurnkeyBackend.authProxy(TurnkeyWire.AuthProxyPath.account): return ["POST": turnkey.account]
        case TurnkeyBackend.authProxy(TurnkeyWire.AuthProxyPath.oauth2Authenticate): return ["POST": turnkey.oauth2Authenticate]
        case TurnkeyBackend.authProxy(TurnkeyWire.AuthProxyPath.oauthLogin): return ["POST": turnkey.oauthLogin]
        case TurnkeyBackend.authProxy(TurnkeyWire.AuthProxyPath.signup): return ["POST": turnkey.signup]
        case TurnkeyBackend.api(TurnkeyWire.APIPath.whoami): return ["POST": turnkey.whoami]
        case TurnkeyBackend.api(TurnkeyWire.APIPath.getUser): return ["POST": turnkey.getUser]
        case TurnkeyBackend.api(TurnkeyWire.APIPath.listWallets): return ["POST": turnkey.listWallets]
        case TurnkeyBackend.api(TurnkeyWire.APIPath.listWalletAccounts): return ["POST": turnkey.listWalletAccounts]
        case TurnkeyBackend.api(TurnkeyWire.APIPath.stampLogin): return ["POST": turnkey.stampLogin]
        case TurnkeyBackend.api(TurnkeyWire.APIPath.getActivity): return ["POST": turnkey.getActivity]
        case "/emulator/v1/reset": return ["POST": administration.adminReset]
        case "/emulator/v1/state": return ["GET": administration.adminState]
        case "/emulator/v1/outbox": return ["GET": administration.adminOutbox]
        case "/emulator/v1/requests": return ["GET": administration.adminRequests]
        case "/emulator/v1/clock": return ["GET": administration.adminClock, "POST": administration.adminClock]
        case "/emulator/v1/faults": return ["GET": administration.adminFaults, "POST": administration.adminFaults]
        case "/emulator/v1/sessions/revoke": return ["POST": administration.adminRevokeSessions]
        case "/emulator/v1/dashboard": return ["GET": administration.adminDashboard]
        case TurnkeyWire.EmulatorPath.admin: return ["GET": administration.adminTurnkey]
        default: break
        }
        if let provider = IdentityProvider(emulatorAuthorizePath: path) { return identityProviders.pageHandlers(provider) }
        if let handlers = identityProviders.genericOIDCHandlers(path) { return handlers }
        // Past the gate, a path under /dashboard/ is the run's dashboard path.
        if path.hasPrefix(DashboardKey.pathPrefix) { return ["GET": administration.dashboard] }
        let callbackPrefix = PortalWire.Path.oauthCallbackPrefix
        if path.hasPrefix(callbackPrefix) {
            let environmentId = String(path.dropFirst(callbackPrefix.count))
            guard !environmentId.isEmpty, !environmentId.contains("/") else { return nil }
            return [
                "GET": { self.portal.googleCallback(environmentId: environmentId, $0) },
                "POST": { self.portal.appleCallback(environmentId: environmentId, $0) }
            ]
        }
        let environmentsPrefix = "/emulator/v1/environments/"
        if path.hasPrefix(environmentsPrefix), path.count > environmentsPrefix.count {
            let id = String(path.dropFirst(environmentsPrefix.count))
            return ["POST": { try self.administration.adminEnvironment(id: id, $0) }]
        }
        let usersPrefix = "/emulator/v1/users/"
        let totpSuffix = "/totp"
        if path.hasPrefix(usersPrefix), path.hasSuffix(totpSuffix), path.count > usersPrefix.count + totpSuffix.count {
            let email = String(path.dropFirst(usersPrefix.count).dropLast(totpSuffix.count))
            return ["GET": { try self.administration.adminUserTotp(email: email, $0) }]
        }
        return nil
    }

    /// Every path answers only requests addressed to a loopback name, as a real service answers only
    /// its own: a DNS-rebinding page reaches 127.0.0.1 under a host name of its own choosing.
    private func hostRefusal(_ request: EmulatorRequest) -> EmulatorResponse? {
        guard let host = request.header("host")?.lowercased() else { return nil }
        let names = ["127.0.0.1", "localhost", "[::1]"]
        guard !(names + names.map { "\($0):\(context.port)" }).contains(host) else { return nil }
        return .error(403, "The emulator only answers requests addressed to 127.0.0.1, localhost or [::1].", path: request.path)
    }
}
