import AuthTestSupport
import Foundation
import PortalAuth
import PortalAuthGNOME
import Testing

extension GNOMEIntegration {
    /// The path real users take: https to the backend. The emulator serves TLS with a certificate from
    /// a test CA, which the CLI trusts only through the documented extra CA file (--ca-file,
    /// PORTAL_CA_FILE); an unknown CA, an expired certificate and a wrong host name are refused, and
    /// nothing (no grant) is sent over a connection that failed verification.
    @Suite(.serialized) struct HTTPSTests {
        let cli: CLI
        let caFile: String

        init() throws {
            GLibLoopThread.ensureRunning()
            caFile = try TestCertificates.caFile
            cli = CLI(apiHost: "unused")
            try #require(cli.run(["sign-out"]).status == 0)
        }

        func cli(for emulator: TLSEmulator, caFile: String?) -> CLI {
            CLI(apiHost: emulator.apiHost, environment: caFile.map { ["PORTAL_CA_FILE": $0] } ?? [:])
        }

        func run(_ cli: CLI, _ arguments: [String], input: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> CLI.Run {
            let result = cli.run(arguments, input: input)
            SecretShapes.expectNone(in: result, sourceLocation: sourceLocation)
            return result
        }

        /// A Google sign-in's redirect from an emulator the test CA vouches for.
        func redirect(from emulator: TLSEmulator) async throws -> String {
            let login = run(cli(for: emulator, caFile: caFile), ["login-url", "google"])
            let authorizeUrl = try #require(login.last["authorizeUrl"] as? String)
            #expect(authorizeUrl.hasPrefix(emulator.apiHost + "/idp/google/authorize?"))
            return try await ProviderPageBrowser(caFile: caFile).signIn(authorizeUrl: authorizeUrl, choices: ["email": "alice@example.com"])
        }

        /// Compared, never printed: a failed expectation would show a session token.
        func storedSession() -> String? { SecretTool.lookup(authEnvironmentId: "local-dev", sessionKey: "default") }
        var nothingStored: Bool { storedSession() == nil }

        @Test func aWholeSignInOverHTTPSWithTheExtraCA() async throws {
            let emulator = try TLSEmulator(certificate: "server")
            let trusted = cli(for: emulator, caFile: caFile)
            let methods = run(trusted, ["methods"])
            #expect(methods.status == 0)
            #expect(methods.last["allowedAuthMethods"] as? [String] == ["EMAIL_MAGIC_LINK", "GOOGLE", "APPLE"])

            // login-url passes the emulator's byte-for-byte allow-list check over TLS too.
            let signedIn = run(trusted, ["handle-redirect", "-"], input: try await redirect(from: emulator) + "\n")
            #expect(signedIn.status == 0)
            #expect(signedIn.last["result"] as? String == "authenticated")
            let stored = storedSession()?.contains(signedIn.last["endUserId"] as? String ?? "?") == true
            #expect(stored, "the keyring holds the signed-in end user's session")

            // The same CA given as a flag instead of the environment.
            let client = run(CLI(apiHost: emulator.apiHost), ["client", "--ca-file", caFile])
            #expect(client.status == 0)
            #expect((client.last["client"] as? [String: Any])?["endUserId"] as? String == signedIn.last["endUserId"] as? String)
            #expect(try emulator.requests().contains("POST /api/v3/auth/oauth/tokens 200"))
            #expect(run(trusted, ["sign-out"]).status == 0)
        }

        @Test func turnkeyOverHTTPSWithTheSameCAFile() throws {
            let emulator = try TLSEmulator(certificate: "server")
            let turnkey = TurnkeyCommandLine(baseURL: emulator.baseURL)
            let trusted = turnkey.run(["providers"], environment: ["PORTAL_CA_FILE": caFile])
            #expect(trusted.status == 0)
            #expect(trusted.last["enabledProviders"] as? [String] == ["google", "apple", "discord", "x"])
            let refused = turnkey.run(["providers"])
            #expect(refused.status == 7)
            #expect(refused.last["error"] as? String == "untrustedCertificate")
        }

        @Test func anUnknownCAIsRefusedAndTheGrantNeverLeaves() async throws {
            let emulator = try TLSEmulator(certificate: "server")
            let redirect = try await redirect(from: emulator)
            let before = try emulator.requests()

            // Without the extra CA, and with a CA file that did not sign the certificate.
            for untrusting in [cli(for: emulator, caFile: nil), cli(for: emulator, caFile: try TestCertificates.path("unknown-ca.pem"))] {
                let refused = run(untrusting, ["handle-redirect", "-"], input: redirect + "\n")
                #expect(refused.status == 7)
                #expect(refused.last["error"] as? String == "untrustedCertificate")
                let message = refused.last["message"] as? String ?? ""
                #expect(message.contains("unknown certificate authority"))
                #expect(message.contains("Nothing was sent"))
            }
            #expect(try emulator.requests() == before, "a request reached the server over an untrusted connection")
            #expect(nothingStored, "the keyring holds a session")

            // Positive control: the same grant, trusted, was never spent.
            let trusted = run(cli(for: emulator, caFile: caFile), ["handle-redirect", "-"], input: redirect + "\n")
            #expect(trusted.last["result"] as? String == "authenticated")
            #expect(run(cli(for: emulator, caFile: caFile), ["sign-out"]).status == 0)
        }

        @Test(arguments: [("expired", "expired"), ("wrong-host", "issued for another host name")])
        func aBadCertificateFromTheTrustedCAIsRefusedAndNothingIsSent(certificate: String, reason: String) throws {
            let emulator = try TLSEmulator(certificate: certificate)
            let trusting = cli(for: emulator, caFile: caFile)
            // A made-up grant: whatever it is, it must not be sent.
            let grant = "pg_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
            for arguments in [["methods"], ["login-url", "google"], ["handle-redirect", "-"]] {
                let refused = run(
                    trusting, arguments, input: "io.github.portalauth.signin://auth/callback?token=\(grant)&login_type=GOOGLE\n")
                #expect(refused.status == 7, "\(arguments)")
                #expect(refused.last["error"] as? String == "untrustedCertificate")
                #expect((refused.last["message"] as? String ?? "").contains(reason))
            }
            #expect(try emulator.requests().isEmpty, "a request reached the server over a connection that failed verification")
            #expect(nothingStored, "the keyring holds a session")
        }

        @Test func anUnreadableCAFileIsAClearErrorAndSendsNothing() throws {
            let emulator = try TLSEmulator(certificate: "server")
            let result = run(cli(for: emulator, caFile: TestScratch.directory + "/no-such-ca.pem"), ["methods"])
            #expect(result.status == 7)
            #expect(result.last["error"] as? String == "caFileUnreadable")
            #expect((result.last["message"] as? String ?? "").contains("no-such-ca.pem"))
            #expect(try emulator.requests().isEmpty)
        }
    }
}
