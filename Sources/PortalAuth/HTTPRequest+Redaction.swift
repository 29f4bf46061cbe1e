import Foundation

/// Requests carry grants (bodies), user JWTs and session tokens (`Authorization`): printing one,
/// by a log line or a failed test expectation, shows only what is safe.
extension HTTPRequest: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String {
        let headerNames = headers.keys.sorted().map { name in
            name.lowercased() == "authorization" ? "\(name): \(SecretRedaction.placeholder)" : "\(name): \(headers[name] ?? "")"
        }
        let bodySummary = body.map { "\($0.count) bytes" } ?? "none"
        return SecretRedaction.redact("\(method) \(url.absoluteString) [\(headerNames.joined(separator: ", "))] body: \(bodySummary)")
    }

    public var debugDescription: String { description }
}
