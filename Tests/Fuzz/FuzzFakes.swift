import Dispatch
import Foundation
import PortalAuth
import Synchronization

/// How the fake Portal answers the one exchange an input may cause (low three bits of the control byte).
enum PortalAnswer: UInt8, CaseIterable {
    case session = 0
    case totpStep
    case unauthorized
    /// A 400 whose body quotes the request, grant included, as a careless server might.
    case badRequestEchoingGrant
    /// A 500 whose body is the request body itself.
    case serverErrorEchoingGrant
    case connectionLost
    case notJSON
    case neitherSessionNorStep

    static let sessionToken = "pst_FuzzSessionTokenValue1"
    static let userJwt = "eyJhbGciOiJIUzI1NiJ9.eyJlbmRVc2VySWQiOiJldV9mdXp6In0.c2lnbmF0dXJl"
}

/// Answers every request the same way and records what it was sent.
final class RecordingTransport: HTTPTransport, Sendable {
    let answer: PortalAnswer
    private let recorded = Mutex<[HTTPRequest]>([])

    init(answer: PortalAnswer) { self.answer = answer }

    var requests: [HTTPRequest] { recorded.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        recorded.withLock { $0.append(request) }
        let sent = request.body.map { String(decoding: $0, as: UTF8.self) } ?? ""
        switch answer {
        case .session:
            return json(200, #"{"data":{"clientId":"cl_fuzz","clientSessionToken":"\#(PortalAnswer.sessionToken)","endUserId":"eu_fuzz"}}"#)
        case .totpStep:
            return json(200, #"{"data":{"endUserId":"eu_fuzz","userJwt":"\#(PortalAnswer.userJwt)"}}"#)
        case .unauthorized:
            return json(401, #"{"error":"Unauthorized"}"#)
        case .badRequestEchoingGrant:
            return json(400, "bad grant in \(sent)")
        case .serverErrorEchoingGrant:
            return json(500, sent)
        case .connectionLost:
            throw TransportError(.connectionLost, host: "127.0.0.1")
        case .notJSON:
            return json(200, "<html>\(sent)</html>")
        case .neitherSessionNorStep:
            return json(200, #"{"data":{"endUserId":"eu_fuzz"}}"#)
        }
    }

    private func json(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }
}

/// A session store in memory whose first save can be made to fail (a locked keyring).
final class FuzzSessionStore: PortalSessionStore, Sendable {
    private struct State {
        var secret: String?
        var failNextSave: Bool
        var touched = false
    }

    private let state: Mutex<State>

    init(failFirstSave: Bool) { state = Mutex(State(failNextSave: failFirstSave)) }

    var secret: String? { state.withLock { $0.secret } }
    var touched: Bool { state.withLock { $0.touched } }

    func load(authEnvironmentId: String) async throws -> String? {
        state.withLock {
            $0.touched = true
            return $0.secret
        }
    }

    func save(_ secret: String, authEnvironmentId: String) async throws {
        try state.withLock { state in
            state.touched = true
            if state.failNextSave {
                state.failNextSave = false
                throw SessionStoreError(.locked)
            }
            state.secret = secret
        }
    }

    func delete(authEnvironmentId: String) async throws {
        state.withLock {
            $0.touched = true
            $0.secret = nil
        }
    }
}

final class FuzzLogger: PortalAuthLogger, Sendable {
    private let recorded = Mutex<[String]>([])
    var lines: [String] { recorded.withLock { $0 } }
    func log(_ message: String) { recorded.withLock { $0.append(message) } }
}

/// Runs async work to completion from libFuzzer's synchronous callback.
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = OutcomeBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        box.set(await body())
        done.signal()
    }
    done.wait()
    return box.take()
}

private final class OutcomeBox<T: Sendable>: Sendable {
    private let value = Mutex<T?>(nil)
    func set(_ new: T) { value.withLock { $0 = new } }
    func take() -> T { value.withLock { $0! } }
}
