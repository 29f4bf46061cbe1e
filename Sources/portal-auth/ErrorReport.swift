import FoundationEssentials
import PortalAuth
import PortalAuthGNOME
import TurnkeyAuth

/// How a failure is shown: its case name (stable, for scripts), a message for a person, an exit status.
/// The words come from `Messages`, the CLI's one table; the errors themselves carry only facts.
struct ErrorReport: Error {
    let caseName: String
    let message: String
    let exitCode: ExitCode

    /// The emulator's `HOST:PORT` while a command runs against it (`--emulator`, `PORTAL_AUTH_EMULATOR_HOST`).
    @TaskLocal static var emulatorHost: String?

    /// The `{"error":…,"message":…}` line on stdout, and the message for a person on stderr.
    func emit() {
        Output.line([("error", .string(caseName)), ("message", .string(message))])
        Output.note(message)
    }

    /// Emits the report of `error`; its exit status.
    static func emit(_ error: any Error) -> ExitCode {
        let report = ErrorReport(error)
        report.emit()
        return report.exitCode
    }

    /// The status `body` returns, or that of the error line it ends in; runs where its caller runs.
    static func status(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> ExitCode) async -> ExitCode {
        do {
            return try await body()
        } catch {
            return emit(error)
        }
    }

    /// Each item's own result or error line; the status is the last one's.
    static func eachStatus(
        isolation: isolated (any Actor)? = #isolation, _ items: [String],
        _ body: (String) async throws -> ExitCode
    ) async -> ExitCode {
        var last = ExitCode.success
        for item in items {
            last = await status { try await body(item) }
        }
        return last
    }

    static func usage(_ message: String) -> ErrorReport {
        ErrorReport(caseName: "usage", message: message, exitCode: .usage)
    }

    init(caseName: String, message: String, exitCode: ExitCode) {
        self.caseName = caseName
        self.message = message
        self.exitCode = exitCode
    }

    init(_ error: any Error) {
        switch error {
        case let report as ErrorReport:
            self = report
        case let error as PortalAuthError:
            self.init(caseName: Self.caseName(error), message: Messages.text(error), exitCode: Self.exitCode(error))
        case let error as PortalRequestsError:
            self.init(caseName: Self.caseName(error), message: Messages.text(error), exitCode: Self.exitCode(error))
        case let error as PortalCredentialError:
            self.init(
                caseName: Self.caseName(error), message: Messages.text(error),
                exitCode: error == .sessionInvalidated ? .unauthorized : .authenticationFailed)
        case let error as PortalAuthSignInError:
            self.init(
                caseName: Self.caseName(error), message: Messages.text(error),
                exitCode: error == .unavailable ? .unavailable : .authenticationFailed)
        case let error as TurnkeyAuthError:
            self.init(caseName: Self.caseName(error), message: Messages.text(error), exitCode: Self.exitCode(error))
        case let error as TurnkeyRequestError:
            self.init(caseName: Self.caseName(error), message: Messages.text(error), exitCode: Self.exitCode(error))
        case let error as TurnkeySignInError:
            self.init(
                caseName: error.rawValue, message: Messages.text(error),
                exitCode: error == .unavailable ? .unavailable : .authenticationFailed)
        case let error as LoopbackListenError:
            let name =
                switch error {
                case .portInUse: "loopbackPortInUse"
                case .cannotListen: "loopbackCannotListen"
                case .interfered: "loopbackInterfered"
                }
            self.init(caseName: name, message: Messages.text(error), exitCode: .unavailable)
        case let error as TransportError:
            self.init(caseName: error.kind.rawValue, message: Messages.text(error, emulator: Self.emulatorHost), exitCode: .transport)
        case let error as SessionStoreError:
            self.init(caseName: "sessionStorageFailure", message: Messages.text(error), exitCode: .sessionStorage)
        default:
            self.init(caseName: "unexpected", message: Messages.unexpected, exitCode: .failure)
        }
    }

    private static func exitCode(_ error: PortalAuthError) -> ExitCode {
        switch error {
        case .invalidArgument, .invalidUserJwt: return .usage
        case .magicLinkNotConfigured, .authMethodUnavailable, .accountAbstractionUnavailable, .totpQrUnavailable:
            return .unavailable
        case .authenticationFailed: return .authenticationFailed
        case .malformedResponse, .invalidGrantResponse, .unsafeAuthorizeUrl: return .invalidResponse
        case .sessionStorageFailure: return .sessionStorage
        case .rateLimited: return .rateLimited
        }
    }

    private static func exitCode(_ error: PortalRequestsError) -> ExitCode {
        switch error {
        case .unauthorized: return .unauthorized
        case .clientError: return .authenticationFailed
        case .internalServerError: return .transport
        case .redirectError, .couldNotParseHttpResponse: return .invalidResponse
        }
    }

    private static func exitCode(_ error: TurnkeyAuthError) -> ExitCode {
        switch error {
        case .invalidConfiguration, .invalidArgument, .keyAlreadyExists: return .usage
        case .providerNotEnabled, .missingClientId, .activityNotCompleted: return .unavailable
        case .unknownState, .signInExpired, .providerError, .callbackIncomplete, .nonceMismatch, .invalidOidcToken,
            .keyNotFound, .activityFailed:
            return .authenticationFailed
        case .sessionNotFound, .sessionExpired: return .unauthorized
        case .malformedResponse, .sessionKeyMismatch: return .invalidResponse
        case .storageFailure: return .sessionStorage
        case .cryptoFailure: return .failure
        }
    }

    private static func exitCode(_ error: TurnkeyRequestError) -> ExitCode {
        switch error {
        case .unauthorized: return .unauthorized
        case .rejected: return .authenticationFailed
        case .rateLimited: return .rateLimited
        case .serverError: return .transport
        case .unexpectedStatus, .unreadableResponse: return .invalidResponse
        }
    }

    // The names scripts match on: each case's own name.

    private static func caseName(_ error: TurnkeyAuthError) -> String {
        switch error {
        case .invalidConfiguration: return "invalidConfiguration"
        case .invalidArgument: return "invalidArgument"
        case .providerNotEnabled: return "providerNotEnabled"
        case .missingClientId: return "missingClientId"
        case .unknownState: return "unknownState"
        case .signInExpired: return "signInExpired"
        case .providerError: return "providerError"
        case .callbackIncomplete: return "callbackIncomplete"
        case .nonceMismatch: return "nonceMismatch"
        case .invalidOidcToken: return "invalidOidcToken"
        case .keyNotFound: return "keyNotFound"
        case .keyAlreadyExists: return "keyAlreadyExists"
        case .sessionNotFound: return "sessionNotFound"
        case .sessionExpired: return "sessionExpired"
        case .malformedResponse: return "malformedResponse"
        case .sessionKeyMismatch: return "sessionKeyMismatch"
        case .activityFailed: return "activityFailed"
        case .activityNotCompleted: return "activityNotCompleted"
        case .storageFailure: return "sessionStorageFailure"
        case .cryptoFailure: return "cryptoFailure"
        }
    }

    private static func caseName(_ error: TurnkeyRequestError) -> String {
        switch error {
        case .unauthorized: return "unauthorized"
        case .rejected: return "rejected"
        case .rateLimited: return "rateLimited"
        case .serverError: return "serverError"
        case .unexpectedStatus: return "unexpectedStatus"
        case .unreadableResponse: return "unreadableResponse"
        }
    }

    private static func caseName(_ error: PortalAuthError) -> String {
        switch error {
        case .invalidArgument: return "invalidArgument"
        case .magicLinkNotConfigured: return "magicLinkNotConfigured"
        case .authMethodUnavailable: return "authMethodUnavailable"
        case .authenticationFailed: return "authenticationFailed"
        case .malformedResponse: return "malformedResponse"
        case .invalidGrantResponse: return "invalidGrantResponse"
        case .invalidUserJwt: return "invalidUserJwt"
        case .sessionStorageFailure: return "sessionStorageFailure"
        case .accountAbstractionUnavailable: return "accountAbstractionUnavailable"
        case .rateLimited: return "rateLimited"
        case .totpQrUnavailable: return "totpQrUnavailable"
        case .unsafeAuthorizeUrl: return "unsafeAuthorizeUrl"
        }
    }

    private static func caseName(_ error: PortalRequestsError) -> String {
        switch error {
        case .unauthorized: return "unauthorized"
        case .clientError: return "clientError"
        case .internalServerError: return "internalServerError"
        case .redirectError: return "redirectError"
        case .couldNotParseHttpResponse: return "couldNotParseHttpResponse"
        }
    }

    private static func caseName(_ error: PortalCredentialError) -> String {
        switch error {
        case .unavailable: return "unavailable"
        case .providerFailure: return "providerFailure"
        case .sessionInvalidated: return "sessionInvalidated"
        case .invalidApiKey: return "invalidApiKey"
        }
    }

    private static func caseName(_ error: PortalAuthSignInError) -> String {
        switch error {
        case .closed: return "closed"
        case .unavailable: return "unavailable"
        case .signInInProgress: return "signInInProgress"
        case .callbackIncomplete: return "callbackIncomplete"
        }
    }
}
