import Foundation
import PortalAuth

// libFuzzer's entry point. An input is one control byte and a URL:
//   control bit 0-2: how the fake Portal answers (PortalAnswer), bit 3: the first keyring save fails,
//   bit 4: the app's redirect URL is the https one instead of the custom scheme,
//   bit 5: the core gets the URL padded to 8190…8194 UTF-16 units, with the filler bits 6-7 pick
//   ("a", "é", an emoji, "e" + U+0301: one unit per byte, per character, or neither), so the
//   8192-unit bound is fuzzed without long inputs slowing every run;
//   the rest: the URL the desktop hands the app (raw bytes for the parser, UTF-8 decoded for the core).
// Any broken property stops the run with `fatalError`, which libFuzzer records as a crash with its input.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRedirect(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let control = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    ParserProperties.check(bytes)
    CoreProperties.check(bytes, control: control)
    return 0
}

func require(_ condition: Bool, _ property: @autoclosure () -> String) {
    if !condition { fatalError("fuzz property broken: \(property())") }
}

/// `URLText` and `QueryString` agree with the reference parser, and normalising is idempotent.
enum ParserProperties {
    static func check(_ bytes: [UInt8]) {
        let url = URLText(bytes: bytes)
        let reference = ReferenceParser.split(bytes)
        require(url.scheme.map { Array(url.bytes[$0]) } == reference.scheme, "scheme differs from the reference")
        require(url.authority.map { Array(url.bytes[$0]) } == reference.authority, "authority differs from the reference")
        require(Array(url.bytes[url.path]) == reference.path, "path differs from the reference")
        require(url.query.map { Array(url.bytes[$0]) } == reference.query, "query differs from the reference")
        require(url.fragment.map { Array(url.bytes[$0]) } == reference.fragment, "fragment differs from the reference")

        let normalized = url.normalizedTarget
        require(normalized == ReferenceParser.normalized(bytes), "normalised target differs from the reference")
        require(URLText(bytes: normalized).normalizedTarget == normalized, "normalising twice changed the target")

        let expected = expectedParameters(reference.query ?? [])
        let actual = url.queryParameters
        require(actual.count == expected.count, "query parameter count differs from the reference")
        for (name, value) in expected {
            require(actual[name].map { Array($0.utf8) == Array(value.utf8) } == true, "a query value differs from the reference")
        }
    }

    /// The reference's pairs assigned in order: a later occurrence wins (under Swift's key equality,
    /// the same equality the core's dictionary uses).
    static func expectedParameters(_ query: [UInt8]) -> [String: String] {
        var result: [String: String] = [:]
        for pair in ReferenceParser.pairs(query) {
            result[String(decoding: pair.name, as: UTF8.self)] = String(decoding: pair.value, as: UTF8.self)
        }
        return result
    }
}

/// `handleRedirect` and `incomingRedirect` on a fresh instance do exactly what the reference predicts.
enum CoreProperties {
    static let customRedirect = "io.github.portalauth.signin://auth/callback"
    static let webRedirect = "https://example.com/portal/callback"
    static let maxUTF16Units = 8192

    enum Prediction: Equatable {
        case notOurs
        case reportsFailure
        case exchange(grant: [UInt8], path: String, method: AuthMethod)
    }

    static func predict(_ url: String, redirectUrl: String) -> Prediction {
        guard !url.isEmpty, url.utf16.count <= maxUTF16Units,
            ReferenceParser.normalized(Array(url.utf8)) == ReferenceParser.normalized(Array(redirectUrl.utf8))
        else {
            return .notOurs
        }
        // The core trims Unicode whitespace (Foundation's rule) before reading the query.
        let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
        let pairs = ReferenceParser.pairs(ReferenceParser.split(Array(trimmed.utf8)).query ?? [])
        func last(_ name: String) -> [UInt8]? { pairs.last { $0.name == Array(name.utf8) }?.value }
        if last("error") != nil { return .reportsFailure }
        guard let grant = last("token"), !grant.isEmpty else { return .notOurs }
        if last("authMethod") == Array("EMAIL_MAGIC_LINK".utf8) {
            return .exchange(grant: grant, path: PortalWire.Path.magicLinkValidations, method: .emailMagicLink)
        }
        switch last("login_type") {
        case Array("GOOGLE".utf8)?: return .exchange(grant: grant, path: PortalWire.Path.oauthTokens, method: .google)
        case Array("APPLE".utf8)?: return .exchange(grant: grant, path: PortalWire.Path.oauthTokens, method: .apple)
        default: return .notOurs
        }
    }

    struct Delivery: Sendable {
        let result: AuthResult?
        let error: (any Error)?
    }

    static let fillers = ["a", "\u{E9}", "\u{1F600}", "e\u{301}"]

    static func check(_ bytes: [UInt8], control: UInt8) {
        var url = String(decoding: bytes, as: UTF8.self)
        if control & 0x20 != 0 {
            let filler = fillers[Int(control >> 6)]
            let missing = 8190 + bytes.count % 5 - url.utf16.count
            if missing > 0 { url += String(repeating: filler, count: (missing + filler.utf16.count - 1) / filler.utf16.count) }
        }
        let answer = PortalAnswer(rawValue: control & 0x07)!
        let failFirstSave = control & 0x08 != 0
        let redirectUrl = control & 0x10 == 0 ? customRedirect : webRedirect
        let transport = RecordingTransport(answer: answer)
        let store = FuzzSessionStore(failFirstSave: failFirstSave)
        let logger = FuzzLogger()
        let auth: PortalAuth
        do {
            auth = try PortalAuth(
                authEnvironmentId: "fuzz-env", redirectUrl: redirectUrl, apiHost: "127.0.0.1:8790",
                transport: transport, sessionStore: store, logger: logger)
        } catch {
            fatalError("the fixed settings were refused")
        }

        let prediction = predict(url, redirectUrl: redirectUrl)
        let before = auth.incomingRedirect(url)
        checkClassification(before, prediction, isRepeat: false)

        let first = deliver(url, to: auth)
        var texts = [first.error.map { String(describing: $0) }].compactMap { $0 }

        switch prediction {
        case .notOurs:
            require(first.result == nil && first.error == nil, "a URL that is not ours was acted on")
            require(transport.requests.isEmpty, "a request was sent for a URL that is not ours")
            require(!store.touched, "the store was touched for a URL that is not ours")
        case .reportsFailure:
            guard case PortalAuthError.authenticationFailed(let reported)? = first.error else {
                fatalError("an error= redirect did not fail as authenticationFailed")
            }
            require(reported.count <= 100, "the reported error is longer than 100 characters")
            require(transport.requests.isEmpty, "a request was sent for an error= redirect")
            require(!store.touched, "the store was touched for an error= redirect")
        case .exchange(let grant, let path, _):
            let requests = transport.requests
            require(requests.count == 1, "an exchange sent \(requests.count) requests")
            require(requests[0].method == "POST" && requests[0].url.path == path, "the grant went to the wrong endpoint")
            require(sentGrant(requests[0]) == grant, "the grant sent is not the redirect's token")
            checkFirstOutcome(first, answer: answer, failFirstSave: failFirstSave, store: store)

            // The desktop delivers the same URL again: a remembered grant replays, nothing is re-sent.
            let remembered = first.result != nil || (answer == .session && failFirstSave)
            let repeated = auth.incomingRedirect(url)
            require((repeated?.standing == .repeated) == remembered, "incomingRedirect misreports a repeat")
            let second = deliver(url, to: auth)
            texts += [second.error.map { String(describing: $0) }].compactMap { $0 }
            require(
                transport.requests.count == (remembered ? 1 : 2),
                "a re-delivered redirect re-sent a remembered grant or skipped a forgotten one")
            if remembered {
                require(second.error == nil && second.result != nil, "a remembered grant did not replay")
                if answer == .session {
                    require(store.secret?.contains(PortalAnswer.sessionToken) == true, "the replay did not leave the session saved")
                }
            }
        }

        // No grant-shaped text, and never this URL's grant, in any error or log line.
        texts += logger.lines
        let grant: String? = if case .exchange(let bytes, _, _) = prediction { String(decoding: bytes, as: UTF8.self) } else { nil }
        for text in texts {
            require(!SecretRedaction.containsSecret(text), "an error or log line holds something shaped like a secret")
            if let grant, SecretRedaction.containsSecret(grant) {
                require(!text.contains(grant), "an error or log line holds the grant")
            }
            require(
                !text.contains(PortalAnswer.sessionToken) && !text.contains(PortalAnswer.userJwt),
                "an error or log line holds a session token or user JWT")
        }
    }

    static func deliver(_ url: String, to auth: PortalAuth) -> Delivery {
        runBlocking {
            do {
                return Delivery(result: try await auth.handleRedirect(url), error: nil)
            } catch {
                return Delivery(result: nil, error: error)
            }
        }
    }

    static func sentGrant(_ request: HTTPRequest) -> [UInt8]? {
        guard let body = request.body,
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any], object.count == 1,
            let token = object["token"] as? String
        else { return nil }
        return Array(token.utf8)
    }

    static func checkClassification(_ incoming: IncomingRedirect?, _ prediction: Prediction, isRepeat: Bool) {
        switch prediction {
        case .notOurs:
            require(incoming == nil, "incomingRedirect claimed a URL that is not ours")
        case .reportsFailure:
            require(incoming?.isError == true && incoming?.method == nil, "incomingRedirect missed an error= redirect")
        case .exchange(_, _, let method):
            require(incoming?.isError == false && incoming?.method == method, "incomingRedirect named the wrong method")
            // A fresh instance started no sign-in: nothing it sees is solicited.
            require(
                incoming?.standing == (isRepeat ? .repeated : .unsolicited),
                "incomingRedirect called a fresh instance's redirect solicited")
        }
    }

    static func checkFirstOutcome(_ first: Delivery, answer: PortalAnswer, failFirstSave: Bool, store: FuzzSessionStore) {
        switch (answer, failFirstSave) {
        case (.session, false):
            require(
                first.result.map { if case .authenticated = $0 { true } else { false } } == true, "a session answer did not authenticate")
            require(store.secret?.contains(PortalAnswer.sessionToken) == true, "the session was returned but not saved")
        case (.session, true):
            guard case PortalAuthError.sessionStorageFailure? = first.error else { fatalError("a failed save was not reported") }
            require(store.secret == nil, "a failed save left something stored")
        case (.totpStep, _):
            require(first.result.map { if case .totpRequired = $0 { true } else { false } } == true, "a TOTP answer did not ask for a code")
            require(store.secret == nil, "a TOTP step saved a session")
        default:
            require(first.result == nil && first.error != nil, "a failed exchange did not throw")
            require(store.secret == nil, "a failed exchange saved a session")
        }
    }
}
