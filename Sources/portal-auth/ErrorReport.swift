import Foundation
import PortalAuth

/// How a failure is shown: its case name (stable, for scripts), a message for a person, an exit status.
struct ErrorReport: Error {
    let caseName: String
    let message: String
    let exitCode: ExitCode

    /// The `{"error":…,"message":…}` line on stdout, and the message for a person on stderr.
    func emit() {
        Output.line([("error", .string(caseName)), ("message", .string(message))])
        Output.note(message)
    }

    static func usage(_ message: String) -> ErrorReport {
        ErrorReport(caseName: "usage", message: message, exitCode: .usage)
    }

    init(caseName: String, message: String, exitCode: ExitCode) {
        self.caseName = caseName
        self.message = message
        self.exitCode = exitCode
    }

    init(_ error: Error) {
        switch error {
        case let report as ErrorReport:
            self = report
        case let error as PortalAuthError:
            self.init(caseName: error.caseName, message: Self.message(error), exitCode: Self.exitCode(error))
        case let error as PortalRequestsError:
            self.init(caseName: error.caseName, message: Self.message(error), exitCode: Self.exitCode(error))
        case let error as PortalCredentialError:
            self.init(caseName: error.caseName, message: Self.message(error),
                      exitCode: error == .sessionInvalidated ? .unauthorized : .authenticationFailed)
        case let error as PortalAuthSignInError:
            self.init(caseName: error.caseName, message: Self.message(error),
                      exitCode: error == .unavailable ? .unavailable : .authenticationFailed)
        case let error as TransportError:
            self.init(caseName: error.kind.rawValue, message: error.description, exitCode: .transport)
        case let error as SessionStoreError:
            self.init(caseName: "sessionStorageFailure", message: error.message, exitCode: .sessionStorage)
        default:
            self.init(caseName: "unexpected", message: "Something unexpected went wrong. Try again.", exitCode: .failure)
        }
    }

    private static func exitCode(_ error: PortalAuthError) -> ExitCode {
        switch error {
        case .invalidArgument, .invalidUserJwt: return .usage
        case .magicLinkNotConfigured, .authMethodUnavailable, .accountAbstractionUnavailable, .totpQrUnavailable:
            return .unavailable
        case .authenticationFailed: return .authenticationFailed
        case .malformedResponse, .invalidGrantResponse: return .invalidResponse
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

    /// The core's own text (it never contains a grant, token or JWT).
    private static func message(_ error: Error) -> String {
        if let localized = error as? LocalizedError, let text = localized.errorDescription { return text }
        return String(describing: error)
    }
}
