/// Encodes a query value the way Portal's backend expects: Java's `URLEncoder` with a space
/// as `%20` instead of `+`. `A-Z a-z 0-9 - _ . *` stay as they are; every other UTF-8 byte
/// becomes `%XX` in uppercase. Portal compares the encoded `redirectUrl` byte for byte with
/// its allow list, so `URLComponents` (which leaves `:` and `/` alone) would earn a 401.
package enum JavaURLEncoder {
    private static let hex = Array("0123456789ABCDEF".utf8)

    package static func encode(_ value: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "*"):
                output.append(byte)
            default:
                output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `name=value&…`, each side encoded.
    package static func encode(_ items: [(String, String)]) -> String {
        items.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }
}
