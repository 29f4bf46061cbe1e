import AuthTestSupport
import Foundation
import PortalAuth
import PortalAuthGNOME
import Testing

extension GNOMEIntegration {
    /// The fault matrix, CLI column (docs/RELIABILITY.md holds the filled table): each endpoint the
    /// CLI calls, against each fault the emulator injects. Every cell checks what the person sees
    /// (exit status, the JSON error line and its words) and that nothing is lost: no session is
    /// reported that was not saved, an earlier session survives a failed sign-in, the grant or code is
    /// sent once (the CLI never re-sends it by itself), and a retry by the person does what the
    /// server's state allows. Requests time out after 2 s (PORTAL_HTTP_TIMEOUT_SECONDS); a hang is 5 s.
    @Suite(.serialized) struct FaultMatrixTests: KeyringSuite {
        let emulator: AdministeredEmulator
        let cli: CLI

        init() async throws {
            (emulator, cli) = try await Self.cleanStart()
        }

        enum Fault: String, CaseIterable, Sendable, CustomTestStringConvertible {
            case status401, status429, status503, hang, drop, clockPlus16Minutes
            var testDescription: String { rawValue }
        }

        static let paths = (
            urls: "/api/v3/auth/oauth/urls", tokens: "/api/v3/auth/oauth/tokens",
            magicLinks: "/api/v3/auth/magic-links", validations: "/api/v3/auth/magic-links/validations",
            totp: "/api/v3/auth/totps/validations", client: "/api/v3/clients/me"
        )

        /// The CLI with a 2-second request deadline, for the command under fault.
        var impatient: CLI {
            var impatient = cli
            impatient.environment["PORTAL_HTTP_TIMEOUT_SECONDS"] = "2"
            return impatient
        }

        func runImpatiently(_ arguments: [String], input: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> CLI.Run {
            let result = impatient.run(arguments, input: input)
            SecretShapes.expectNone(in: result, sourceLocation: sourceLocation)
            return result
        }

        /// Injects `fault` for the next request to `path` (the clock moves at once).
        func inject(_ fault: Fault, on path: String) async throws {
            switch fault {
            case .status401: try await emulator.fault(path: path, kind: "status", status: 401)
            case .status429: try await emulator.fault(path: path, kind: "status", status: 429)
            case .status503: try await emulator.fault(path: path, kind: "status", status: 503)
            case .hang: try await emulator.fault(path: path, kind: "hang", seconds: 5)
            case .drop: try await emulator.fault(path: path, kind: "drop")
            case .clockPlus16Minutes: try await emulator.advanceClock(seconds: 16 * 60)
            }
        }

        /// Exit status, error case and words of a fault that reaches the client.
        static func seen(_ fault: Fault) -> (status: Int32, error: String, words: String) {
            switch fault {
            case .status401: return (4, "unauthorized", "(401)")
            case .status429: return (9, "rateLimited", "refused more attempts for now")
            case .status503: return (7, "internalServerError", "server error (503")
            case .hang: return (7, "timedOut", "did not answer in time")
            case .drop: return (7, "connectionLost", "closed before an answer arrived")
            case .clockPlus16Minutes: return (4, "unauthorized", "(401)")
            }
        }

        func expectFailure(_ result: CLI.Run, _ fault: Fault, sourceLocation: SourceLocation = #_sourceLocation) {
            let seen = Self.seen(fault)
            #expect(result.status == seen.status, sourceLocation: sourceLocation)
            #expect(result.last["error"] as? String == seen.error, sourceLocation: sourceLocation)
            #expect((result.last["message"] as? String ?? "").contains(seen.words), sourceLocation: sourceLocation)
            #expect(
                !result.lines.contains { $0["result"] != nil }, "a result was reported for a failed command",
                sourceLocation: sourceLocation)
        }

        func requestCount(_ method: String, _ path: String) async throws -> Int {
            try await emulator.requests(method, path).count
        }

        // MARK: the keyring

        /// A session stored before the cell: a failed sign-in must neither delete nor replace it.
        static let earlierSession = #"{"clientSessionToken":"pst_faultmatrixearliersession0","endUserId":"earlier-user"}"#

        func storeEarlierSession() async throws {
            try await KeyringPortalSessionStore(sessionKey: "default").save(Self.earlierSession, authEnvironmentId: "local-dev")
        }

        /// Compared, never printed (a failed expectation would show it).
        var earlierSessionKept: Bool { SecretTool.lookup(authEnvironmentId: "local-dev", sessionKey: "default") == Self.earlierSession }
        var nothingStored: Bool { SecretTool.lookup(authEnvironmentId: "local-dev", sessionKey: "default") == nil }

        /// The CLI's `session` reads what secret-tool reads: the keyring and the client agree.
        func expectCLIAgreesWithKeyring(endUserId: String?, sourceLocation: SourceLocation = #_sourceLocation) {
            let session = run(["session"], sourceLocation: sourceLocation)
            #expect(session.status == 0, sourceLocation: sourceLocation)
            let shown = (session.last["session"] as? [String: Any])?["endUserId"] as? String
            #expect(shown == endUserId, sourceLocation: sourceLocation)
        }

        // MARK: oauth/urls (login-url)

        @Test(arguments: Fault.allCases)
        func oauthURLs(_ fault: Fault) async throws {
            try await storeEarlierSession()
            if fault == .clockPlus16Minutes {
                // The state of a sign-in started before the jump has expired when the person finishes it.
                let login = run(["login-url", "google"])
                let authorizeUrl = try #require(login.last["authorizeUrl"] as? String)
                try await inject(fault, on: Self.paths.urls)
                let redirect = try await ProviderPageBrowser().signIn(authorizeUrl: authorizeUrl, choices: ["email": "alice@example.com"])
                let result = run(["handle-redirect", "-"], input: redirect + "\n")
                #expect(result.status == 5)
                #expect(result.last["error"] as? String == "authenticationFailed")
                #expect(try await requestCount("POST", Self.paths.tokens) == 0, "an error redirect carries no grant to send")
            } else {
                try await inject(fault, on: Self.paths.urls)
                expectFailure(runImpatiently(["login-url", "google"]), fault)
                #expect(try await requestCount("GET", Self.paths.urls) == 1)
                // Nothing was spent: asked again, the sign-in starts.
                #expect(run(["login-url", "google"]).last["authorizeUrl"] is String)
            }
            #expect(earlierSessionKept, "the earlier session was lost")
            expectCLIAgreesWithKeyring(endUserId: "earlier-user")
        }

        // MARK: oauth/tokens and magic-links/validations (handle-redirect)

        /// The grant exchange, by Google redirect or magic link.
        func exchange(_ fault: Fault, path: String, redirect: () async throws -> String) async throws {
            try await storeEarlierSession()
            let url = try await redirect()
            try await inject(fault, on: path)
            let failed = runImpatiently(["handle-redirect", "-"], input: url + "\n")
            expectFailure(failed, fault)
            #expect(try await requestCount("POST", path) == 1, "the grant was sent more than once")
            #expect(earlierSessionKept, "a failed sign-in deleted or replaced the earlier session")
            expectCLIAgreesWithKeyring(endUserId: "earlier-user")

            // The person tries the same link again: it works only if the server never spent the grant.
            let retry = run(["handle-redirect", "-"], input: url + "\n")
            switch fault {
            case .status401, .status429, .status503, .hang:
                // Refused before any work, or abandoned unhandled when the client gave up.
                #expect(retry.status == 0)
                #expect(retry.last["result"] as? String == "authenticated")
                expectCLIAgreesWithKeyring(endUserId: retry.last["endUserId"] as? String)
            case .drop, .clockPlus16Minutes:
                // Spent by the dropped exchange (its session exists only at Portal), or expired.
                #expect(retry.status == 4)
                #expect(retry.last["error"] as? String == "unauthorized")
                #expect(earlierSessionKept)
            }
        }

        @Test(arguments: Fault.allCases)
        func oauthTokens(_ fault: Fault) async throws {
            try await exchange(fault, path: Self.paths.tokens) { try await signedInRedirect() }
        }

        @Test(arguments: Fault.allCases)
        func magicLinkValidations(_ fault: Fault) async throws {
            try await exchange(fault, path: Self.paths.validations) {
                try #require(run(["send-magic-link", "alice@example.com"]).status == 0)
                return try #require(try await emulator.outbox().last?.link)
            }
        }

        // MARK: magic-links (send-magic-link)

        @Test(arguments: Fault.allCases)
        func magicLinks(_ fault: Fault) async throws {
            try await storeEarlierSession()
            try await inject(fault, on: Self.paths.magicLinks)
            let result = runImpatiently(["send-magic-link", "alice@example.com"])
            let mails = try await emulator.outbox().count
            switch fault {
            case .clockPlus16Minutes:
                #expect(result.status == 0)
                #expect(result.last["sent"] as? Bool == true)
                #expect(mails == 1)
            case .drop:
                // Sent, though the person was told the connection closed: the mail arrives anyway.
                expectFailure(result, fault)
                #expect(mails == 1)
            default:
                expectFailure(result, fault)
                #expect(mails == 0, "a refused or abandoned request sent a mail")
            }
            #expect(try await requestCount("POST", Self.paths.magicLinks) == 1, "the request was sent more than once")
            #expect(earlierSessionKept)
            expectCLIAgreesWithKeyring(endUserId: "earlier-user")
        }

        // MARK: totps/validations (verify-totp)

        @Test(arguments: Fault.allCases)
        func totpValidations(_ fault: Fault) async throws {
            try await storeEarlierSession()
            let pending = run(["handle-redirect", "-"], input: try await signedInRedirect(email: "totp@example.com") + "\n")
            let userJwt = try #require(pending.last["userJwt"] as? String)
            try await inject(fault, on: Self.paths.totp)
            // The code on the emulator's clock (after a jump, the jumped one).
            let code = try await emulator.totpCode(email: "totp@example.com")
            let failed = runImpatiently(["verify-totp", code, "--user-jwt", "-"], input: userJwt + "\n")
            // After the jump the user JWT is past its 10 minutes: Portal refuses it (401). The CLI's
            // own clock did not move, so it cannot say "expired" before asking.
            expectFailure(failed, fault)
            #expect(try await requestCount("POST", Self.paths.totp) == 1, "the code was sent more than once")
            #expect(earlierSessionKept, "a failed verification deleted or replaced the earlier session")

            let retry = run(["verify-totp", code, "--user-jwt", "-"], input: userJwt + "\n")
            switch fault {
            case .status401, .status429, .status503, .hang:
                // The code was never checked: the same code finishes the sign-in.
                #expect(retry.last["result"] as? String == "authenticated")
                expectCLIAgreesWithKeyring(endUserId: retry.last["endUserId"] as? String)
            case .drop:
                // Accepted by the dropped request: a code works once.
                #expect(retry.status == 4)
                #expect(earlierSessionKept)
            case .clockPlus16Minutes:
                #expect(retry.status == 4)
                #expect(earlierSessionKept)
            }
        }

        // MARK: clients/me (client)

        @Test(arguments: Fault.allCases)
        func clientsMe(_ fault: Fault) async throws {
            let signedIn = run(["handle-redirect", "-"], input: try await signedInRedirect() + "\n")
            let endUserId = try #require(signedIn.last["endUserId"] as? String)
            try await inject(fault, on: Self.paths.client)
            let result = runImpatiently(["client"])
            switch fault {
            case .clockPlus16Minutes:
                // Sessions do not expire with time; the client is still known.
                #expect(result.status == 0)
                #expect((result.last["client"] as? [String: Any])?["endUserId"] as? String == endUserId)
                expectCLIAgreesWithKeyring(endUserId: endUserId)
            case .status401:
                // Portal no longer accepts the session: it is forgotten, as the app does.
                expectFailure(result, fault)
                #expect((result.last["message"] as? String ?? "").contains("no longer accepts this session"))
                #expect(nothingStored, "a session Portal refused is still stored")
                expectCLIAgreesWithKeyring(endUserId: nil)
            default:
                // A failure that says nothing about the session keeps it.
                expectFailure(result, fault)
                expectCLIAgreesWithKeyring(endUserId: endUserId)
                #expect(run(["client"]).status == 0, "the kept session still works")
            }
            #expect(try await requestCount("GET", Self.paths.client) >= 1)
        }
    }
}
