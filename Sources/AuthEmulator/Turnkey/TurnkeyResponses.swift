import AuthBase
import Foundation

/// A Turnkey refusal: an HTTP status with Turnkey's body `{"code":…,"message":…,"details":[]}`
/// (google.rpc.Status; `code` is the gRPC code the status stands for).
struct TurnkeyError: Error {
    let status: Int
    let code: Int
    let message: String
    /// Why, in one word, for `details` (`google.rpc.ErrorInfo`) where the message stays Turnkey's own.
    var reason: String?

    init(status: Int, code: Int? = nil, _ message: String, reason: String? = nil) {
        self.status = status
        self.code = code ?? Self.grpcCode(forStatus: status)
        self.message = message
        self.reason = reason
    }

    /// 400, code 3: a malformed request; the message names the field.
    static func invalidArgument(_ message: String) -> TurnkeyError { TurnkeyError(status: 400, code: 3, message) }
    /// 400, code 9: the request is well formed but this config does not allow it.
    static func failedPrecondition(_ message: String) -> TurnkeyError { TurnkeyError(status: 400, code: 9, message) }
    /// 401, code 16: a missing or unknown config ID, a bad stamp, an invalid token or code.
    static func unauthenticated(_ message: String) -> TurnkeyError { TurnkeyError(status: 401, code: 16, message) }
    /// 404, code 5: an unknown user, organization or activity.
    static func notFound(_ message: String) -> TurnkeyError { TurnkeyError(status: 404, code: 5, message) }
    /// 409, code 6: signup would register an identity another sub-organization holds.
    static func alreadyExists(_ message: String) -> TurnkeyError { TurnkeyError(status: 409, code: 6, message) }

    var response: EmulatorResponse {
        let details: [JSONValue] =
            reason.map { reason in
                [
                    .object([
                        "@type": .string("type.googleapis.com/google.rpc.ErrorInfo"), "reason": .string(reason),
                        "domain": .string("portal-auth-emulator")
                    ])
                ]
            } ?? []
        return .encoded(status, TurnkeyWire.ErrorBody(code: code, message: message, details: details))
    }

    /// How grpc-gateway maps codes to statuses, read backwards (for 404s, 405s, 413s and injected faults).
    static func grpcCode(forStatus status: Int) -> Int {
        switch status {
        case 400: 3
        case 401: 16
        case 403: 7
        case 404: 5
        case 405, 501: 12
        case 409: 6
        case 413, 429: 8
        case 499: 1
        case 503: 14
        case 504: 4
        case 500...599: 13
        default: 2
        }
    }
}

extension EmulatorResponse {
    /// A Turnkey success body: the wire type itself, without Portal's `{"data":…}` envelope.
    static func turnkey(_ body: some Encodable) -> EmulatorResponse { encoded(200, body) }

    static func turnkeyError(_ status: Int, code: Int? = nil, _ message: String) -> EmulatorResponse {
        encoded(status, TurnkeyWire.ErrorBody(code: code ?? TurnkeyError.grpcCode(forStatus: status), message: message))
    }

    /// Whether `path` answers in Turnkey's error shape rather than Portal's.
    static func speaksTurnkey(_ path: String) -> Bool {
        path.hasPrefix(TurnkeyWire.EmulatorPath.authProxyBase + "/") || path.hasPrefix(TurnkeyWire.EmulatorPath.apiBase + "/")
    }

    /// An error in the shape the path's clients read.
    static func error(_ status: Int, _ message: String, path: String) -> EmulatorResponse {
        speaksTurnkey(path) ? turnkeyError(status, message) : error(status, message)
    }
}

extension EmulatorRequest {
    /// The JSON body as a Turnkey wire type; a missing or mistyped field is a 400 naming it
    /// (`oauthProviders[1].providerName is required`).
    func turnkeyBody<Body: Decodable>(_ type: Body.Type) throws(TurnkeyError) -> Body {
        guard JSON.object(from: body) != nil else { throw .invalidArgument("the request body must be a JSON object") }
        do {
            return try JSONDecoder().decode(Body.self, from: body)
        } catch DecodingError.keyNotFound(let key, let context) {
            throw .invalidArgument("\(Self.fieldName(context.codingPath + [key])) is required")
        } catch DecodingError.valueNotFound(_, let context) {
            throw .invalidArgument("\(Self.fieldName(context.codingPath)) is required")
        } catch DecodingError.typeMismatch(let expected, let context) {
            throw .invalidArgument("\(Self.fieldName(context.codingPath)) must be \(Self.jsonKind(expected))")
        } catch DecodingError.dataCorrupted(let context) {
            throw .invalidArgument("\(Self.fieldName(context.codingPath)) has a value this endpoint does not accept")
        } catch {
            throw .invalidArgument("the request body does not fit this endpoint")
        }
    }

    private static func fieldName(_ path: [any CodingKey]) -> String {
        var name = ""
        for key in path {
            if let index = key.intValue { name += "[\(index)]" } else { name += (name.isEmpty ? "" : ".") + key.stringValue }
        }
        return name.isEmpty ? "the request body" : name
    }

    private static func jsonKind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type: "a number"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default: "of another JSON type"
        }
    }
}
