import AuthBase
import Foundation

/// What the server glue should do with a request.
enum RequestOutcome {
    case respond(EmulatorResponse)
    /// Hold the request `seconds`, then answer with whatever `respond` returns then.
    case hold(seconds: Int, respond: () -> EmulatorResponse)
    /// Close the connection without answering.
    case drop
}

extension Emulator {
    private typealias Handler = (EmulatorRequest) throws -> EmulatorResponse

    /// Entry point for every request: size limit, injected faults, routing, request log.
    func handle(_ request: EmulatorRequest) -> RequestOutcome {
        let isAdmin = request.path.hasPrefix("/emulator/")
        let log = { (status: Int) in if !isAdmin { self.requests.record(method: request.method, path: request.path, status: status) } }

        guard request.body.count <= Self.maxBodyBytes else {
            log(413)
            return .respond(.error(413, "Request body is larger than 64 KiB."))
        }
        if !isAdmin, let fault = faults.take(path: request.path) {
            switch fault.kind {
            case .status:
                log(fault.status)
                return .respond(.error(fault.status, "Injected fault: \(fault.status) from the emulator."))
            case .hang:
                return .hold(seconds: fault.seconds) {
                    let response = self.route(request)
                    log(response.status)
                    return response
                }
            case .drop:
                _ = route(request)   // the work is committed, the answer never arrives
                log(0)
                return .drop
            }
        }
        let response = route(request)
        log(response.status)
        return .respond(response)
    }

    func route(_ request: EmulatorRequest) -> EmulatorResponse {
        guard let handlers = handlers(for: request.path) else {
            return .error(404, "No such endpoint: \(request.path)")
        }
        guard let handler = handlers[request.method] else {
            var response = EmulatorResponse.error(405, "\(request.method) is not allowed on \(request.path).")
            response.headers.append(("Allow", handlers.keys.sorted().joined(separator: ", ")))
            return response
        }
        if request.path.hasPrefix("/emulator/"), let refusal = adminRefusal(request) { return refusal }
        do {
            return try handler(request)
        } catch let error as ResponseError {
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
        case "/idp/google/authorize": return ["GET": { self.showProviderPage(.google, $0) }, "POST": submitGooglePage]
        case "/idp/apple/authorize": return ["GET": { self.showProviderPage(.apple, $0) }]
        case "/emulator/v1/reset": return ["POST": adminReset]
        case "/emulator/v1/state": return ["GET": adminState]
        case "/emulator/v1/outbox": return ["GET": adminOutbox]
        case "/emulator/v1/requests": return ["GET": adminRequests]
        case "/emulator/v1/clock": return ["GET": adminClock, "POST": adminClock]
        case "/emulator/v1/faults": return ["GET": adminFaults, "POST": adminFaults]
        case "/emulator/v1/sessions/revoke": return ["POST": adminRevokeSessions]
        default: break
        }
        let callbackPrefix = PortalWire.Path.oauthCallbackPrefix
        if path.hasPrefix(callbackPrefix) {
            let environmentId = String(path.dropFirst(callbackPrefix.count))
            guard !environmentId.isEmpty, !environmentId.contains("/") else { return nil }
            return ["GET": { self.googleCallback(environmentId: environmentId, $0) },
                    "POST": { self.appleCallback(environmentId: environmentId, $0) }]
        }
        let usersPrefix = "/emulator/v1/users/", totpSuffix = "/totp"
        if path.hasPrefix(usersPrefix), path.hasSuffix(totpSuffix), path.count > usersPrefix.count + totpSuffix.count {
            let email = String(path.dropFirst(usersPrefix.count).dropLast(totpSuffix.count))
            return ["GET": { try self.adminUserTotp(email: email, $0) }]
        }
        return nil
    }

    /// The admin API answers only local tools: a page on another site (a browser sends its Origin) or a
    /// DNS-rebinding host name cannot drive it.
    private func adminRefusal(_ request: EmulatorRequest) -> EmulatorResponse? {
        let port = baseURL.split(separator: ":").last.map(String.init) ?? ""
        let allowedHosts = ["127.0.0.1:\(port)", "localhost:\(port)"]
        if let host = request.header("host"), !allowedHosts.contains(host.lowercased()) {
            return .error(403, "The administration API only answers requests addressed to 127.0.0.1.")
        }
        if let origin = request.header("origin"), !allowedHosts.map({ "http://\($0)" }).contains(origin.lowercased()) {
            return .error(403, "The administration API does not answer web pages from other origins.")
        }
        return nil
    }
}
