/// Removes anything shaped like a secret from text that came from outside (a redirect URL, a server
/// body, a store message) before it goes into an error or a log line: Portal grants (`pg_…`) and
/// session tokens (`pst_…`), JWTs (`eyJ….…`: user JWTs, OIDC tokens, Turnkey sessions), and any long
/// opaque run of 32 or more characters without a dot (PKCE verifiers, private keys in hex, provider
/// codes). A compressed P-256 package key (66 hex digits, `02`/`03` first) and a UUID are package and stay.
///
/// Works on runs of token characters (`A-Z a-z 0-9 _ - .`) in one linear pass over the bytes, so a
/// hostile input costs no more than its length. Over-redacting a harmless word is fine; leaking is not.
package enum SecretRedaction {
    package static let placeholder = "[redacted]"

    package static func redact(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var runStart: Int?
        let bytes = Array(text.utf8)
        func flush(upTo end: Int) {
            guard let start = runStart else { return }
            let run = bytes[start..<end]
            if looksSecret(run) { output += placeholder.utf8 } else { output += run }
            runStart = nil
        }
        for (index, byte) in bytes.enumerated() {
            if isTokenByte(byte) {
                if runStart == nil { runStart = index }
            } else {
                flush(upTo: index)
                output.append(byte)
            }
        }
        flush(upTo: bytes.count)
        return String(decoding: output, as: UTF8.self)
    }

    package static func containsSecret(_ text: String) -> Bool {
        redact(text) != text
    }

    /// Runs this long without a dot, of this many different characters, are opaque values, not
    /// words or padding (a random 43-character verifier has about 30 different characters).
    static let opaqueRunLength = 32
    static let opaqueRunVariety = 12

    private static func looksSecret(_ run: ArraySlice<UInt8>) -> Bool {
        guard run.count >= 4 else { return false }
        if contains(run, "pg_") || contains(run, "pst_") { return true }
        let hasDot = run.contains(UInt8(ascii: "."))
        if contains(run, "eyJ") && hasDot { return true }
        return run.count >= opaqueRunLength && !hasDot && Set(run).count >= opaqueRunVariety && !isCompressedPublicKey(run)
            && !isUUID(run)
    }

    /// `8-4-4-4-12` hex digits: identifiers (Turnkey's organizations, users, activities), not secrets.
    private static func isUUID(_ run: ArraySlice<UInt8>) -> Bool {
        let groups = run.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy { QueryString.hexValue($0) != nil } }
    }

    private static func isCompressedPublicKey(_ run: ArraySlice<UInt8>) -> Bool {
        guard run.count == 66, run.first == UInt8(ascii: "0"),
            run.dropFirst().first == UInt8(ascii: "2") || run.dropFirst().first == UInt8(ascii: "3")
        else { return false }
        return run.allSatisfy { QueryString.hexValue($0) != nil }
    }

    private static func contains(_ run: ArraySlice<UInt8>, _ needle: StaticString) -> Bool {
        let pattern = Array(UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount))
        guard run.count >= pattern.count else { return false }
        var index = run.startIndex
        while index + pattern.count <= run.endIndex {
            if run[index..<(index + pattern.count)].elementsEqual(pattern) { return true }
            index += 1
        }
        return false
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }
}
