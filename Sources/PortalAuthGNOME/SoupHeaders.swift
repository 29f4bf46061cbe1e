import CAuthPlatform

/// The headers of a libsoup message (client or server side) as a dictionary; the one loop over
/// `SoupMessageHeaders`, for the transport and the emulator's server.
package enum SoupHeaders {
    /// Repeated headers are joined with ", " as HTTP allows (Set-Cookie aside, which no reader here
    /// needs). Names as they came, or lowercased (then `Accept` and `accept` are one header).
    package static func fields(of headers: OpaquePointer?, lowercasingNames: Bool = false) -> [String: String] {
        var fields: [String: String] = [:]
        var iterator = SoupMessageHeadersIter()
        libsoup.soup_message_headers_iter_init(&iterator, headers)
        var name: UnsafePointer<CChar>?
        var value: UnsafePointer<CChar>?
        while libsoup.soup_message_headers_iter_next(&iterator, &name, &value) != 0 {
            guard let name, let value else { continue }
            let key = lowercasingNames ? String(cString: name).lowercased() : String(cString: name)
            let text = String(cString: value)
            fields[key] = fields[key].map { $0 + ", " + text } ?? text
        }
        return fields
    }
}
