import AuthTestSupport
import Foundation
import PortalAuth
import PortalAuthGNOME
import Testing

extension GNOMEIntegration {
    /// The fault matrix's keyring rows, CLI column: the login keyring locked (no prompt can appear),
    /// locked with its unlock prompt dismissed, and no Secret Service on the bus at all, at each point
    /// where a session is saved (handle-redirect), restored (session, client) or deleted (sign-out).
    /// Each is a clear storage failure (exit 6) that claims nothing and loses nothing: afterwards the
    /// keyring holds what it held, and the CLI says the same.
    @Suite(.serialized) struct KeyringFaultMatrixTests: KeyringSuite {
        let emulator: AdministeredEmulator
        let cli: CLI

        init() async throws {
            (emulator, cli) = try await Self.cleanStart()
        }

        enum Condition: String, CaseIterable, Sendable, CustomTestStringConvertible {
            case locked, promptDismissed, noSecretService
            var testDescription: String { rawValue }
        }

        enum Point: String, CaseIterable, Sendable, CustomTestStringConvertible {
            case save, restore, restoreAndCheck, delete
            var testDescription: String { rawValue }
            var arguments: [String] {
                switch self {
                case .save: return ["handle-redirect", "-"]
                case .restore: return ["session"]
                case .restoreAndCheck: return ["client"]
                case .delete: return ["sign-out"]
                }
            }
        }

        static let cells = Condition.allCases.flatMap { condition in Point.allCases.map { (condition, $0) } }

        func storedSecret() -> String? { SecretTool.lookup(authEnvironmentId: "local-dev", sessionKey: "default") }

        /// Runs `arguments` with the keyring in `condition`; the keyring is unlocked again afterwards.
        func run(_ arguments: [String], input: String?, under condition: Condition) throws -> CLI.Run {
            switch condition {
            case .noSecretService:
                let result = cli.run(arguments, input: input, viaDBusSessionWithoutKeyring: true)
                SecretShapes.expectNone(in: result)
                return result
            case .locked, .promptDismissed:
                try LoginKeyring.lock()
                defer { try? LoginKeyring.unlock() }
                let prompter = condition == .promptDismissed ? try FakePrompter(.dismiss) : nil
                defer { prompter?.stop() }
                let result = cli.run(arguments, input: input)
                SecretShapes.expectNone(in: result)
                return result
            }
        }

        @Test(arguments: cells)
        func aKeyringThatCannotBeUsedLosesNothing(_ condition: Condition, _ point: Point) async throws {
            // A real session stored first: it must come through every cell as it was.
            let first = run(["handle-redirect", "-"], input: try await signedInRedirect() + "\n")
            let endUserId = try #require(first.last["endUserId"] as? String)
            let before = try #require(storedSecret(), "no session was stored to begin with")
            let input = point == .save ? try await signedInRedirect(email: "bob@example.com") + "\n" : nil
            let exchangesBefore = try await emulator.requests("POST", "/api/v3/auth/oauth/tokens").count

            let result = try run(point.arguments, input: input, under: condition)

            #expect(result.status == 6)
            #expect(result.last["error"] as? String == "sessionStorageFailure")
            let message = result.last["message"] as? String ?? ""
            switch condition {
            case .noSecretService: #expect(message.contains("No keyring service is running"))
            // A save asks to unlock the keyring first; headless, that prompt ends dismissed.
            case .locked: #expect(message.contains(point == .save ? "stayed locked" : "login keyring is locked"), "\(message)")
            case .promptDismissed: #expect(message.contains("Unlock") && message.contains("keyring"))
            }
            #expect(
                !result.lines.contains { $0["result"] != nil || $0["session"] != nil || $0["signedOut"] != nil },
                "a result was reported though the keyring could not be used")
            if point == .save {
                // Refused before anything was sent, the grant unspent: a locked keyring is unlocked (or
                // not) before the exchange, and without a Secret Service nothing starts.
                #expect(try await emulator.requests("POST", "/api/v3/auth/oauth/tokens").count == exchangesBefore)
            }
            if point == .restoreAndCheck {
                #expect(try await emulator.requests("GET", "/api/v3/clients/me").isEmpty, "no session was read, so none was sent")
            }

            // Nothing lost: the same session, unchanged, and the CLI reads it again once the keyring works.
            try #require(try !LoginKeyring.isLocked)
            let unchanged = storedSecret() == before
            #expect(unchanged, "the stored session changed or went away")
            let restored = run(["session"])
            #expect((restored.last["session"] as? [String: Any])?["endUserId"] as? String == endUserId)
        }
    }
}
