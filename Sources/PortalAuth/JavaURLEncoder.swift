/// Encodes a query value the way Portal's backend expects: Java's `URLEncoder` with a space
/// as `%20` instead of `+`. `A-Z a-z 0-9 - _ . *` stay as they are; every other UTF-8 byte
/// becomes `%XX` in uppercase. Portal compares the encoded `redirectUrl` byte for byte with
/// its allow list, so `URLComponents` (which leaves `:` and `/` alone) would earn a 401.
enum JavaURLEncoder {
    static func encode(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        var output = ""
        output.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "*"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                output.append("%")
                output.unicodeScalars.append(hex[Int(byte >> 4)])
                output.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return output
    }
}
