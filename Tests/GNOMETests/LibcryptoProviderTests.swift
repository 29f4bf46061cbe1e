import AuthBase
import Foundation
import PortalAuthGNOME
import Testing

/// libcrypto through the platform layer, checked by independent tools: Debian's `openssl` verifies
/// the signatures and `sha256sum` recomputes the digests.
@Suite struct LibcryptoProviderTests {
    let crypto = LibcryptoProvider()

    /// SubjectPublicKeyInfo (DER) of a compressed P-256 key: the fixed ASN.1 prefix, then the point.
    private func pem(compressedPublicKey key: [UInt8]) -> String {
        let prefix: [UInt8] = [0x30, 0x39, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08,
                               0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x22, 0x00]
        return "-----BEGIN PUBLIC KEY-----\n\(Data(prefix + key).base64EncodedString())\n-----END PUBLIC KEY-----\n"
    }

    private func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crypto-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func opensslVerifiesOurSignaturesAndRefusesATamperedMessage() throws {
        let pair = try crypto.generateP256()
        #expect(pair.publicKey.count == 33 && [0x02, 0x03].contains(pair.publicKey[0]))
        #expect(pair.publicKeyHex.count == 66)
        let message = Array(#"{"organizationId":"org-1","type":"ACTIVITY_TYPE_STAMP_LOGIN"}"#.utf8)
        let signature = try crypto.p256Sign(message, privateKey: pair.privateKey)

        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try pem(compressedPublicKey: pair.publicKey).write(to: directory.appendingPathComponent("key.pem"), atomically: true, encoding: .utf8)
        try Data(signature).write(to: directory.appendingPathComponent("sig.der"))
        try Data(message).write(to: directory.appendingPathComponent("message"))
        try Data(message + [0x20]).write(to: directory.appendingPathComponent("tampered"))
        func verify(_ file: String) -> ProcessResult {
            Subprocess.run("/usr/bin/openssl", ["dgst", "-sha256", "-verify", directory.appendingPathComponent("key.pem").path,
                                                "-signature", directory.appendingPathComponent("sig.der").path,
                                                directory.appendingPathComponent(file).path])
        }
        let good = verify("message")
        #expect(good.status == 0 && good.stdout.contains("Verified OK"))
        #expect(verify("tampered").status != 0)
        #expect(crypto.p256Verify(signature, message: message, publicKey: pair.publicKey))
        #expect(!crypto.p256Verify(signature, message: message + [0x20], publicKey: pair.publicKey))
    }

    @Test func thePublicKeyIsDerivedFromThePrivateKeyAndBadScalarsAreRefused() throws {
        let pair = try crypto.generateP256()
        #expect(try crypto.p256PublicKey(privateKey: pair.privateKey) == pair.publicKey)
        #expect(throws: CryptoError.self) { try crypto.p256PublicKey(privateKey: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: CryptoError.self) { try crypto.p256PublicKey(privateKey: [UInt8](repeating: 0xFF, count: 32)) }
        #expect(throws: CryptoError.self) { try crypto.p256Sign([1], privateKey: [1, 2, 3]) }
    }

    @Test func sha256AgreesWithSha256sum() throws {
        let input = "0394e549d3c5d5cbb8de9d9bc8d8f1e5e4c9c3c4b6f3ce4d3e0a6ba2d0e5e281a"
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("input")
        try Data(input.utf8).write(to: file)
        let expected = Subprocess.run("/usr/bin/sha256sum", [file.path]).stdout.split(separator: " ").first.map(String.init)
        #expect(Hex.encode(crypto.sha256(Array(input.utf8))) == expected)
    }

    @Test func theUncompressedPointAgreesWithOpensslAndInvalidPointsAreRefused() throws {
        let pair = try crypto.generateP256()
        let uncompressed = try crypto.p256UncompressedPublicKey(pair.publicKey)
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pemFile = directory.appendingPathComponent("key.pem"), derFile = directory.appendingPathComponent("key.der")
        try pem(compressedPublicKey: pair.publicKey).write(to: pemFile, atomically: true, encoding: .utf8)
        let converted = Subprocess.run("/usr/bin/openssl", ["ec", "-pubin", "-in", pemFile.path, "-pubout",
                                                            "-conv_form", "uncompressed", "-outform", "DER", "-out", derFile.path])
        #expect(converted.status == 0)
        // The SubjectPublicKeyInfo ends with the 65-byte point.
        let expected = try Array(Data(contentsOf: derFile).suffix(65))
        #expect(uncompressed == expected && uncompressed.first == 0x04)
        #expect(try crypto.p256UncompressedPublicKey(uncompressed) == uncompressed)

        var offCurve = uncompressed
        offCurve[64] ^= 0x01
        #expect(throws: CryptoError.self) { try crypto.p256UncompressedPublicKey(offCurve) }
        #expect(throws: CryptoError.self) { try crypto.p256UncompressedPublicKey([0x02] + [UInt8](repeating: 0xFF, count: 32)) }
        #expect(throws: CryptoError.self) { try crypto.p256UncompressedPublicKey([0x05] + pair.publicKey.dropFirst()) }
        #expect(throws: CryptoError.self) { try crypto.p256UncompressedPublicKey(Array(pair.publicKey.prefix(20))) }
    }

    @Test func randomBytesAreFreshEachTime() throws {
        let first = try crypto.randomBytes(32), second = try crypto.randomBytes(32)
        #expect(first.count == 32 && first != second)
    }
}
