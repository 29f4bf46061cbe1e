import AuthBase
import AuthTestSupport
import Foundation
import PortalAuthGNOME
import Testing

@testable import TurnkeyAuth

/// libcrypto through the platform layer, checked by independent tools: Debian's `openssl` verifies
/// the signatures and `sha256sum` recomputes the digests.
@Suite struct LibcryptoProviderTests {
    let crypto = LibcryptoProvider()

    /// SubjectPublicKeyInfo (DER) of a compressed P-256 key: the fixed ASN.1 prefix, then the point.
    private func pem(compressedPublicKey key: [UInt8]) -> String {
        let prefix: [UInt8] = [
            0x30, 0x39, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08,
            0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x22, 0x00
        ]
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
        try pem(compressedPublicKey: pair.publicKey).write(
            to: directory.appendingPathComponent("key.pem"), atomically: true, encoding: .utf8)
        try Data(signature).write(to: directory.appendingPathComponent("sig.der"))
        try Data(message).write(to: directory.appendingPathComponent("message"))
        try Data(message + [0x20]).write(to: directory.appendingPathComponent("tampered"))
        func verify(_ file: String) -> ProcessResult {
            Subprocess.run(
                "/usr/bin/openssl",
                [
                    "dgst", "-sha256", "-verify", directory.appendingPathComponent("key.pem").path,
                    "-signature", directory.appendingPathComponent("sig.der").path,
                    directory.appendingPathComponent(file).path
                ])
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

    @Test func turnkeysDocumentedNonceHoldsWithLibcryptoAndSha256sum() throws {
        let publicKey = "0394e549c71fa99dd5cf752fba623090be314949b74e4cdf7ca72031dd638e281a"
        let documented = "1663bba492a323085b13895634a3618792c4ec6896f3c34ef3c26396df22ef82"
        #expect(Nonce.of(publicKeyHex: publicKey, crypto: crypto) == documented)
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("key")
        try Data(publicKey.utf8).write(to: file)
        #expect(Subprocess.run("/usr/bin/sha256sum", [file.path]).stdout.hasPrefix(documented + " "))
    }

    /// The X-Stamp of a real stamped request: decoded, its signature verified by `openssl` over the
    /// exact body bytes that were sent, for the key it names.
    @Test func opensslVerifiesTheStampOfARealRequestOverItsExactBody() async throws {
        let pair = try crypto.generateP256()
        let keys = MemoryKeys()
        try await keys.save(privateKey: Hex.encode(pair.privateKey), publicKey: pair.publicKeyHex)
        let sessions = MemorySessions()
        let session = Secrets.jwt(claims: [
            "exp": 4_102_444_800, "public_key": pair.publicKeyHex, "organization_id": "sub-org-é/1",
            "user_id": "user-1", "session_type": "SESSION_TYPE_READ_WRITE"
        ])
        try await sessions.save(session, authProxyConfigId: "local-dev", sessionKey: "default")
        let transport = ScriptedTransport()
        transport.reply(#"{"organizationId":"sub-org-é/1","userId":"user-1"}"#)
        let auth = try TurnkeyAuth(
            configuration: TurnkeyConfiguration(
                authProxyUrl: "http://127.0.0.1:8790/turnkey/auth-proxy", authProxyConfigId: "local-dev",
                apiUrl: "http://127.0.0.1:8790/turnkey/api"),
            transport: transport, stores: TurnkeyStores(sessions: sessions, keys: keys, pending: MemoryPending()), crypto: crypto)
        _ = try await auth.whoami()

        let request = try #require(transport.requests.first)
        let body = try #require(request.body)
        #expect(String(decoding: body, as: UTF8.self) == #"{"organizationId":"sub-org-é/1"}"#)
        let stamp = try #require(request.headers["X-Stamp"].flatMap(Base64URL.decode))
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(stamp)) as? [String: String])
        #expect(fields["publicKey"] == pair.publicKeyHex)
        #expect(fields["scheme"] == "SIGNATURE_SCHEME_TK_API_P256")
        let signature = try #require(fields["signature"].flatMap(Hex.decode))

        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let publicKey = try #require(Hex.decode(fields["publicKey"] ?? ""))
        try pem(compressedPublicKey: publicKey).write(to: directory.appendingPathComponent("key.pem"), atomically: true, encoding: .utf8)
        try Data(signature).write(to: directory.appendingPathComponent("sig.der"))
        try body.write(to: directory.appendingPathComponent("body"))
        try (body + Data(" ".utf8)).write(to: directory.appendingPathComponent("reencoded"))
        func verify(_ file: String) -> ProcessResult {
            Subprocess.run(
                "/usr/bin/openssl",
                [
                    "dgst", "-sha256", "-verify", directory.appendingPathComponent("key.pem").path,
                    "-signature", directory.appendingPathComponent("sig.der").path,
                    directory.appendingPathComponent(file).path
                ])
        }
        let verified = verify("body")
        #expect(verified.status == 0 && verified.stdout.contains("Verified OK"))
        #expect(verify("reencoded").status != 0, "a byte more and the stamp no longer verifies")
    }

    @Test func theUncompressedPointAgreesWithOpensslAndInvalidPointsAreRefused() throws {
        let pair = try crypto.generateP256()
        let uncompressed = try crypto.p256UncompressedPublicKey(pair.publicKey)
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pemFile = directory.appendingPathComponent("key.pem")
        let derFile = directory.appendingPathComponent("key.der")
        try pem(compressedPublicKey: pair.publicKey).write(to: pemFile, atomically: true, encoding: .utf8)
        let converted = Subprocess.run(
            "/usr/bin/openssl",
            [
                "ec", "-pubin", "-in", pemFile.path, "-pubout",
                "-conv_form", "uncompressed", "-outform", "DER", "-out", derFile.path
            ])
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
        let first = try crypto.randomBytes(32)
        let second = try crypto.randomBytes(32)
        #expect(first.count == 32 && first != second)
    }
}

/// Plain in-memory stores, so this test exercises the stamper and libcrypto, not the keyring.
private final class MemoryItems: Sendable {
    let box = Box<[String: String]>([:])
    func get(_ name: String) -> String? { box.withLock { $0[name] } }
    func set(_ name: String, _ value: String?) { box.withLock { $0[name] = value } }
}

private final class MemorySessions: TurnkeySessionStore, Sendable {
    let items = MemoryItems()
    func load(authProxyConfigId: String, sessionKey: String) async throws -> String? { items.get(sessionKey) }
    func save(_ jwt: String, authProxyConfigId: String, sessionKey: String) async throws { items.set(sessionKey, jwt) }
    func delete(authProxyConfigId: String, sessionKey: String) async throws { items.set(sessionKey, nil) }
    func sessionKeys(authProxyConfigId: String) async throws -> [String] { items.box.withLock { Array($0.keys) } }
}

private final class MemoryKeys: TurnkeyKeyStore, Sendable {
    let items = MemoryItems()
    func load(publicKey: String) async throws -> String? { items.get(publicKey) }
    func save(privateKey: String, publicKey: String) async throws { items.set(publicKey, privateKey) }
    func delete(publicKey: String) async throws { items.set(publicKey, nil) }
}

private final class MemoryPending: TurnkeyPendingSignInStore, Sendable {
    func load(authProxyConfigId: String, state: String) async throws -> String? { nil }
    func save(_ record: String, authProxyConfigId: String, state: String) async throws {}
    func delete(authProxyConfigId: String, state: String) async throws {}
    func all(authProxyConfigId: String) async throws -> [String: String] { [:] }
}
