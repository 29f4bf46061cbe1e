import AuthBase
import Foundation

/// What to send back; the server glue writes it out.
struct EmulatorResponse {
    var status: Int
    var contentType: String?
    var body: Data
    var headers: [(String, String)] = []

    static func json(_ status: Int, _ object: Any) -> EmulatorResponse {
        EmulatorResponse(status: status, contentType: "application/json", body: JSON.encode(object))
    }
    static func data(_ object: Any) -> EmulatorResponse { json(200, ["data": object]) }
    static func error(_ status: Int, _ message: String) -> EmulatorResponse {
        encoded(status, PortalWire.ErrorBody(error: message))
    }

    /// A Portal answer: `payload` as the shared wire type the client decodes, in `{"data":…}`.
    static func payload<Payload: Codable>(_ payload: Payload) -> EmulatorResponse {
        encoded(200, PortalWire.Envelope(data: payload))
    }

    static func encoded(_ status: Int, _ value: some Encodable) -> EmulatorResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return EmulatorResponse(status: status, contentType: "application/json", body: body)
    }

    static func html(_ status: Int, _ page: String) -> EmulatorResponse {
        EmulatorResponse(
            status: status, contentType: "text/html; charset=utf-8", body: Data(page.utf8),
            headers: [("Cache-Control", "no-store")])
    }
    static func redirect(to location: String) -> EmulatorResponse {
        EmulatorResponse(
            status: 302, contentType: nil, body: Data(),
            headers: [("Location", location), ("Cache-Control", "no-store")])
    }
}
