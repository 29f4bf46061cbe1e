import AuthBase
import Foundation

/// `/emulator/v1/…` (contract §3): JSON administration for tests and people. Never hands out tokens
/// except where a test needs them (the outbox links, TOTP secrets).
extension Administration {
    func adminReset(_ request: EmulatorRequest) -> EmulatorResponse {
        reset()
        return .data(["reset": true])
    }

    func adminState(_ request: EmulatorRequest) -> EmulatorResponse {
        let environments: [[String: Any]] = portal.environments.map {
            [
                "id": $0.id, "authMethods": $0.authMethods.map(\.rawValue), "redirectUrls": $0.redirectUrls,
                "providersWithoutCredentials": $0.providersWithoutCredentials.map(\.rawValue),
                "autoCreateWallet": $0.autoCreateWallet, "accountAbstraction": $0.accountAbstraction,
                "callbackUrl": portal.callbackURL(environmentId: $0.id)
            ]
        }
        let userList: [[String: Any]] = portal.users.ordered.map {
            [
                "environmentId": $0.environmentId, "email": $0.email, "name": $0.name, "endUserId": $0.endUserId,
                "clientId": $0.clientId, "needsTotp": $0.needsTotp, "totpEnrolled": $0.totpEnrolled
            ]
        }
        let sessionList: [[String: Any]] = portal.sessions.all.map {
            [
                "environmentId": $0.environmentId, "endUserId": $0.endUserId, "clientId": $0.clientId,
                "isAccountAbstracted": $0.isAccountAbstracted, "createdAt": $0.createdAt
            ]
        }
        let appleReceipts: [[String: Any]] = portal.appleSubjects.receipts.map { receipt in
            var entry: [String: Any] = ["environmentId": receipt.environmentId, "sub": receipt.sub, "emailInForm": receipt.emailInForm]
            if let email = receipt.endUserEmail,
                let user = portal.users.user(environmentId: receipt.environmentId, email: email)
            {
                entry["endUserId"] = user.endUserId
            }
            return entry
        }
        return .data([
            "environments": environments, "users": userList, "sessions": sessionList,
            "appleCallbacks": appleReceipts, "now": now
        ])
    }

    /// `GET dashboard`: the dashboard's address (with its key), for a script that did not see the
    /// start-up lines (`script/run` reusing a running emulator).
    func adminDashboard(_ request: EmulatorRequest) -> EmulatorResponse {
        .data(["url": dashboardURL])
    }

    func adminOutbox(_ request: EmulatorRequest) -> EmulatorResponse {
        .data(portal.outbox.messages.map { ["email": $0.email, "link": $0.link, "sentAt": Self.isoDate($0.sentAt)] })
    }

    func adminRequests(_ request: EmulatorRequest) -> EmulatorResponse {
        .data(requests.entries.map { ["method": $0.method, "path": $0.path, "status": $0.status] as [String: Any] })
    }

    func adminClock(_ request: EmulatorRequest) throws -> EmulatorResponse {
        if request.method == "POST" {
            let body = try request.jsonFields()
            guard let seconds = body.number("advanceSeconds"), seconds >= 0, seconds <= 10 * 365 * 86400 else {
                throw ResponseError(400, "advanceSeconds must be a number of seconds, 0 or more (the clock never goes back).")
            }
            context.clock.advance(by: seconds)
        }
        return .data(["now": now, "advancedSeconds": context.clock.advancedSeconds])
    }

    func adminFaults(_ request: EmulatorRequest) throws -> EmulatorResponse {
        if request.method == "POST" {
            let body = try request.jsonFields()
            guard let path = body.string("path"), path.hasPrefix("/"), !path.contains("?") else {
                throw ResponseError(400, "path must be a request path such as /api/v3/auth/oauth/tokens (no query).")
            }
            guard !path.hasPrefix("/emulator/") else { throw ResponseError(400, "Faults cannot target the administration API.") }
            guard let kindName = body.string("kind"), let kind = Fault.Kind(rawValue: kindName) else {
                throw ResponseError(400, "kind must be \"status\", \"hang\", \"drop\" or \"pending\".")
            }
            let stampLoginPath = TurnkeyBackend.api(TurnkeyWire.APIPath.stampLogin)
            guard kind != .pending || path == stampLoginPath else {
                throw ResponseError(400, "A pending fault only applies to \(stampLoginPath).")
            }
            let pendingAnswers = body.has("pendingAnswers") ? body.number("pendingAnswers") : 1
            guard let pendingAnswers, pendingAnswers >= 1, pendingAnswers <= 100, pendingAnswers == pendingAnswers.rounded() else {
                throw ResponseError(400, "pendingAnswers must be a whole number from 1 to 100.")
            }
            let count = body.has("count") ? body.number("count") : 1
            guard let count, count >= 1, count <= 1000, count == count.rounded() else {
                throw ResponseError(400, "count must be a whole number from 1 to 1000.")
            }
            let status = body.has("status") ? body.number("status") : 503
            guard let status, (400...599).contains(Int(status)), status == status.rounded() else {
                throw ResponseError(400, "status must be an HTTP error status from 400 to 599.")
            }
            let seconds = body.has("seconds") ? body.number("seconds") : 5
            guard let seconds, seconds >= 1, seconds <= 600, seconds == seconds.rounded() else {
                throw ResponseError(400, "seconds must be a whole number from 1 to 600.")
            }
            faults.add(
                Fault(
                    path: path, kind: kind, remaining: Int(count), status: Int(status), seconds: Int(seconds),
                    pendingAnswers: Int(pendingAnswers)))
        }
        return .data(faults.faults.map(\.json))
    }

    /// `POST environments/<id>`: the sign-in methods and allowed redirect URLs an environment has now,
    /// as a Portal admin would change them in the dashboard (`reset` restores the configured ones).
    func adminEnvironment(id: String, _ request: EmulatorRequest) throws -> EmulatorResponse {
        guard let index = portal.environments.firstIndex(where: { $0.id == id }) else {
            throw ResponseError(404, "No environment \(id) in this emulator.")
        }
        guard let body = JSON.object(from: request.body) else { throw ResponseError(400, "The request body must be a JSON object.") }
        var environment = portal.environments[index]
        do {
            if body["authMethods"] != nil {
                environment.authMethods = try ConfigLoader.methodList(body["authMethods"], field: "authMethods", required: true)
            }
            if body["redirectUrls"] != nil {
                environment.redirectUrls = try ConfigLoader.redirectUrlList(body["redirectUrls"], field: "redirectUrls")
            }
            if body["providersWithoutCredentials"] != nil {
                environment.providersWithoutCredentials = try ConfigLoader.methodList(
                    body["providersWithoutCredentials"], field: "providersWithoutCredentials", required: true)
            }
        } catch let error as ConfigError {
            throw ResponseError(400, error.description)
        }
        portal.environments[index] = environment
        return .data([
            "id": environment.id, "authMethods": environment.authMethods.map(\.rawValue),
            "redirectUrls": environment.redirectUrls,
            "providersWithoutCredentials": environment.providersWithoutCredentials.map(\.rawValue)
        ])
    }

    func adminUserTotp(email rawEmail: String, _ request: EmulatorRequest) throws -> EmulatorResponse {
        let email = Emails.normalize(QueryString.decode(rawEmail))
        let environmentId = request.query["environment"]
        let candidates = portal.users.ordered.filter { $0.email == email && (environmentId == nil || $0.environmentId == environmentId) }
        guard let user = candidates.first else { throw ResponseError(404, "No user \(email) in this emulator.") }
        guard user.needsTotp else { throw ResponseError(404, "\(email) does not use TOTP.") }
        return .data([
            "secret": user.totpSecretBase32, "code": Totp.code(secret: user.totpSecret, step: Totp.step(at: now)),
            "environmentId": user.environmentId, "enrolled": user.totpEnrolled
        ])
    }

    /// Not in the contract but handy for "session revoked" tests: drops all sessions, or one end user's.
    func adminRevokeSessions(_ request: EmulatorRequest) throws -> EmulatorResponse {
        let endUserId = request.body.isEmpty ? nil : try request.jsonFields().string("endUserId")
        return .data(["revoked": portal.sessions.revoke(endUserId: endUserId)])
    }
}
