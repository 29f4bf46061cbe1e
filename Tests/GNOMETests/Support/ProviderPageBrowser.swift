import AuthTestSupport
import Foundation
import PortalAuth
import PortalAuthGNOME

/// Drives the emulator's fake Google and Apple pages the way a browser without JavaScript does:
/// GET the authorize URL, submit the chooser form, submit any form_post page, follow redirects,
/// and stop at the redirect into the app. The returned URL carries a grant: compare it, never print it.
struct ProviderPageBrowser {
    struct Failure: Error, CustomStringConvertible { let description: String }

    let transport: SoupTransport
    let appScheme = "io.github.portalauth.signin"

    /// `caFile`: the test CA, to browse an emulator that serves https.
    init(caFile: String? = nil) {
        transport = SoupTransport(configuration: TransportConfiguration(caFile: caFile, timeoutSeconds: 10))
    }

    /// - Parameters:
    ///   - choices: form fields to set on the provider page (e.g. `["email": "alice@example.com"]`).
    ///   - action: the button to press (`continue` or `cancel`).
    func signIn(authorizeUrl: String, choices: [String: String], action: String = "continue") async throws -> String {
        guard case .appRedirect(let url) = try await browse(authorizeUrl: authorizeUrl, choices: choices, action: action, loopback: nil)
        else {
            throw Failure(description: "the sign-in did not end on the app's redirect")
        }
        return url
    }

    /// The page the app's loopback listener answered.
    struct LoopbackPage {
        let status: Int
        let body: String
    }

    /// The same round trip with a loopback redirect URL: the redirect is a plain http GET to
    /// `loopback` (`http://127.0.0.1:PORT/PATH`), as a browser makes it, and its answer is returned.
    func signInThroughLoopback(authorizeUrl: String, choices: [String: String], loopback: String) async throws -> LoopbackPage {
        guard
            case .loopbackPage(let page) = try await browse(
                authorizeUrl: authorizeUrl, choices: choices, action: "continue",
                loopback: loopback)
        else {
            throw Failure(description: "the sign-in did not reach the loopback redirect URL")
        }
        return page
    }

    private enum Ending {
        case appRedirect(String)
        case loopbackPage(LoopbackPage)
    }

    private func browse(authorizeUrl: String, choices: [String: String], action: String, loopback: String?) async throws -> Ending {
        GLibLoopThread.ensureRunning()
        var request = HTTPRequest(method: "GET", url: URL(string: authorizeUrl)!)
        var pressedChooser = false
        for _ in 0..<10 {
            let response = try await transport.send(request)
            if let loopback, request.url.absoluteString.hasPrefix(loopback) {
                return .loopbackPage(LoopbackPage(status: response.status, body: String(decoding: response.body, as: UTF8.self)))
            }
            if (300..<400).contains(response.status) {
                guard let location = header(response, "Location") else { throw Failure(description: "redirect without Location") }
                if location.hasPrefix(appScheme + ":") { return .appRedirect(location) }
                request = HTTPRequest(method: "GET", url: URL(string: location, relativeTo: request.url)!.absoluteURL)
                continue
            }
            guard response.status == 200, let form = HTMLForm.first(in: String(decoding: response.body, as: UTF8.self)) else {
                throw Failure(description: "the provider answered \(response.status) without a form to submit")
            }
            var fields = form.fields
            if !pressedChooser && form.names.contains("email") {
                for (name, value) in choices {
                    fields.removeAll { $0.0 == name }
                    fields.append((name, value))
                }
                fields.removeAll { $0.0 == "action" }
                fields.append(("action", action))
                pressedChooser = true
            }
            let target = URL(
                string: form.action.isEmpty ? request.url.absoluteString : form.action,
                relativeTo: request.url)!.absoluteURL
            let body = fields.map { Self.formEncode($0.0) + "=" + Self.formEncode($0.1) }.joined(separator: "&")
            if form.method == "get" {
                var components = URLComponents(url: target, resolvingAgainstBaseURL: false)!
                components.percentEncodedQuery = body
                request = HTTPRequest(method: "GET", url: components.url!)
            } else {
                request = HTTPRequest(
                    method: "POST", url: target,
                    headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(body.utf8))
            }
        }
        throw Failure(description: "too many steps without reaching the app's redirect")
    }

    private func header(_ response: HTTPResponse, _ name: String) -> String? {
        response.headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        return text.addingPercentEncoding(withAllowedCharacters: allowed)!.replacingOccurrences(of: "%20", with: "+")
    }
}
