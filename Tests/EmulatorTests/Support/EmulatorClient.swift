import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP answer. Bodies may hold grants or tokens: tests compare them, never print them.
struct HTTPResult: Sendable {
    let status: Int
    let headers: [String: String]
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
    var data: [String: Any]? { json?["data"] as? [String: Any] }
    var dataList: [[String: Any]]? { json?["data"] as? [[String: Any]] }
    var error: String? { json?["error"] as? String }
    var location: String? { header("Location") }
    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

/// Refuses every redirect so tests see the 302s themselves.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// Talks to one emulator over real HTTP on loopback.
final class EmulatorClient: @unchecked Sendable {
    let baseURL: URL
    let environmentId: String
    /// Sent as `Authorization: Bearer` to the admin API and the dashboard (unless the request names
    /// its own Authorization); nil: the client is a stranger to the administration.
    let adminToken: String?
    static let redirectUrl = "io.github.portalauth.signin://auth/callback"
    static let encodedRedirectUrl = "io.github.portalauth.signin%3A%2F%2Fauth%2Fcallback"
    private let session: URLSession

    /// `timeout` bounds each request (FoundationNetworking honours the session's, not the request's).
    init(baseURL: URL, environmentId: String = "local-dev", adminToken: String? = nil, timeout: TimeInterval = 10) {
        self.baseURL = baseURL
        self.environmentId = environmentId
        self.adminToken = adminToken
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }

    struct TransportFailure: Error {
        let code: Int
    }

    func send(
        _ method: String, _ pathOrURL: String, body: Data? = nil, contentType: String? = nil,
        headers: [String: String] = [:], environment: String?? = .none, timeout: TimeInterval = 10
    ) async throws -> HTTPResult {
        let url = pathOrURL.hasPrefix("http") ? URL(string: pathOrURL)! : URL(string: baseURL.absoluteString + pathOrURL)!
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = body
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        let env: String? = environment ?? environmentId
        if let env, pathOrURL.contains("/api/v3/") { request.setValue(env, forHTTPHeaderField: "x-portal-auth-environment-id") }
        let isAdministration = url.path.hasPrefix("/emulator/") || url.path == "/" || url.path.isEmpty
        if let adminToken, isAdministration, !headers.keys.contains(where: { $0.lowercased() == "authorization" }) {
            request.setValue("Bearer \(adminToken)", forHTTPHeaderField: "Authorization")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: TransportFailure(code: (error as NSError).code))
                } else if let http = response as? HTTPURLResponse {
                    var headers: [String: String] = [:]
                    for (key, value) in http.allHeaderFields { headers["\(key)"] = "\(value)" }
                    continuation.resume(returning: HTTPResult(status: http.statusCode, headers: headers, body: data ?? Data()))
                } else {
                    continuation.resume(throwing: TransportFailure(code: -1))
                }
            }.resume()
        }
    }

    func get(
        _ path: String, headers: [String: String] = [:], environment: String?? = .none, timeout: TimeInterval = 10
    ) async throws -> HTTPResult {
        try await send("GET", path, headers: headers, environment: environment, timeout: timeout)
    }

    func post(
        _ path: String, json: Any, headers: [String: String] = [:], environment: String?? = .none,
        timeout: TimeInterval = 10
    ) async throws -> HTTPResult {
        let body = try JSONSerialization.data(withJSONObject: json)
        return try await send(
            "POST", path, body: body, contentType: "application/json", headers: headers,
            environment: environment, timeout: timeout)
    }

    func postForm(_ pathOrURL: String, _ fields: [(String, String)], headers: [String: String] = [:]) async throws -> HTTPResult {
        let body = fields.map { "\(Self.formEncode($0.0))=\(Self.formEncode($0.1))" }.joined(separator: "&")
        return try await send("POST", pathOrURL, body: Data(body.utf8), contentType: "application/x-www-form-urlencoded", headers: headers)
    }

    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    // MARK: administration

    func reset() async throws {
        let result = try await post("/emulator/v1/reset", json: [String: Any]())
        guard result.status == 200 else { throw TransportFailure(code: result.status) }
    }

    @discardableResult
    func advanceClock(_ seconds: Int) async throws -> Int {
        let result = try await post("/emulator/v1/clock", json: ["advanceSeconds": seconds])
        return result.data?["now"] as? Int ?? 0
    }

    /// The dashboard's address with its key (`GET /emulator/v1/dashboard`); "" when it is not given.
    func dashboardURL() async throws -> String { try await get("/emulator/v1/dashboard").data?["url"] as? String ?? "" }

    func now() async throws -> Int { try await get("/emulator/v1/clock").data?["now"] as? Int ?? 0 }

    func addFault(_ fault: [String: Any]) async throws {
        let result = try await post("/emulator/v1/faults", json: fault)
        guard result.status == 200 else { throw TransportFailure(code: result.status) }
    }

    func totpSecret(_ email: String) async throws -> String {
        try await get("/emulator/v1/users/\(email)/totp").data?["secret"] as? String ?? ""
    }

    func outbox() async throws -> [[String: Any]] { try await get("/emulator/v1/outbox").dataList ?? [] }

    func requestLog() async throws -> [[String: Any]] { try await get("/emulator/v1/requests").dataList ?? [] }

    func state() async throws -> [String: Any] { try await get("/emulator/v1/state").data ?? [:] }
}
