import Testing

@testable import AuthBase

@Suite("ECDSA signature encodings (DER and JWS raw r || s)")
struct ECDSASignatureTests {
    /// r with its high bit set (DER needs a leading zero), s short (DER drops leading zeros).
    private static let r: [UInt8] = [0x80] + [UInt8](repeating: 0x11, count: 31)
    private static let s: [UInt8] = [0x00, 0x00] + [UInt8](repeating: 0x22, count: 30)
    private static let der: [UInt8] = [0x30, 0x43, 0x02, 0x21, 0x00] + r + [0x02, 0x1E] + [UInt8](repeating: 0x22, count: 30)

    @Test func rawToDERAddsASignZeroAndDropsLeadingZeros() {
        #expect(ECDSASignature.der(fromRaw: Self.r + Self.s) == Self.der)
    }

    @Test func derToRawPadsEachIntegerTo32Bytes() {
        #expect(ECDSASignature.raw(fromDER: Self.der) == Self.r + Self.s)
    }

    @Test func aZeroScalarRoundTrips() {
        let raw = [UInt8](repeating: 0, count: 32) + [UInt8](repeating: 0x7F, count: 32)
        let der = ECDSASignature.der(fromRaw: raw)
        #expect(der?.prefix(5) == [0x30, 0x25, 0x02, 0x01, 0x00])
        #expect(der.flatMap(ECDSASignature.raw(fromDER:)) == raw)
    }

    @Test func refusesRawSignaturesOfAnotherLength() {
        #expect(ECDSASignature.der(fromRaw: [UInt8](repeating: 1, count: 63)) == nil)
        #expect(ECDSASignature.der(fromRaw: [UInt8](repeating: 1, count: 65)) == nil)
    }

    @Test(arguments: [
        [0x30, 0x44] + Array(der.dropFirst(2)) as [UInt8], // wrong total length
        der + [0x00], // trailing byte
        [0x31] + Array(der.dropFirst()), // not a SEQUENCE
        [0x30, 0x06, 0x02, 0x01, 0x80, 0x02, 0x01, 0x01], // negative r
        [0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x01], // needless leading zero
        [0x30, 0x26, 0x02, 0x21] + [UInt8](repeating: 0x01, count: 33) + [0x02, 0x01, 0x01], // r longer than 32 bytes
        [0x30, 0x03, 0x02, 0x01, 0x01] // only one integer
    ])
    func refusesDERThatIsNotStrict(_ der: [UInt8]) {
        #expect(ECDSASignature.raw(fromDER: der) == nil)
    }
}
