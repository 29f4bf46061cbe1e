import AuthTestSupport
import Foundation
import Testing

extension GNOMEIntegration {
    /// `portal-auth` reads the secrets it takes on stdin within bounds: a redirect URL of at most 8192
    /// characters, a user JWT or OIDC token of at most 16384, 64 KiB in all. Beyond them it stops
    /// reading, exits 2 naming the limit, repeats none of the input and sends nothing.
    @Suite(.serialized) struct CLIStandardInputTests {
        let emulator: AdministeredEmulator
        let cli: CLI

        init() async throws {
            GLibLoopThread.ensureRunning()
            emulator = try #require(AdministeredEmulator.shared, "the emulator must start (swift build first)")
            try await emulator.reset()
            cli = CLI(apiHost: emulator.apiHost)
        }

        /// A redirect URL for this app `length` characters long (UTF-16 code units), its grant-shaped
        /// token padded with `filler`.
        static func redirect(length: Int, filler: Character = "A") -> String {
            let start = "io.github.portalauth.signin://auth/callback?login_type=GOOGLE&token=pg_"
            let padding = String(repeating: filler, count: (length - start.utf16.count) / String(filler).utf16.count)
            return start + padding
        }

        /// Every command that reads a secret on stdin, and the limit its refusal names.
        static let readers: [(arguments: [String], limit: String)] = [
            (["handle-redirect", "-"], "A redirect URL on stdin is longer than 8192 characters"),
            (["turnkey", "handle-redirect", "-"], "A redirect URL on stdin is longer than 8192 characters"),
            (["verify-totp", "123456", "--user-jwt", "-"], "A user JWT on stdin is longer than 16384 characters"),
            (
                ["turnkey", "complete-oauth", "--oidc-token", "-", "--public-key", "02" + String(repeating: "ab", count: 32)],
                "An OIDC token on stdin is longer than 16384 characters"
            )
        ]

        /// Exit 2 as a usage error, `message` on stderr, and nothing of `input` (or any secret) shown.
        func expectRefused(
            _ result: CLI.Run, saying message: String, input: String, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            #expect(result.status == 2, sourceLocation: sourceLocation)
            #expect(result.last["error"] as? String == "usage", sourceLocation: sourceLocation)
            #expect(result.stderr.contains(message), sourceLocation: sourceLocation)
            let sample = String(input.suffix(32))
            let repeated = result.stdout.contains(sample) || result.stderr.contains(sample)
            #expect(!repeated, "the input was repeated", sourceLocation: sourceLocation)
            SecretShapes.expectNone(in: result, sourceLocation: sourceLocation)
        }

        @Test func aRedirectURLLongerThan8192CharactersIsRefusedUnusedAndUnrepeated() async throws {
            let url = Self.redirect(length: 9000)
            for arguments in [["handle-redirect", "-"], ["turnkey", "handle-redirect", "-"]] {
                let result = cli.run(arguments, input: url + "\n")
                expectRefused(result, saying: "A redirect URL on stdin is longer than 8192 characters", input: url)
            }
            #expect(try await emulator.requests().isEmpty, "the CLI sent something")
        }

        @Test func aMebibyteWithoutANewlineIsRefusedWithoutWaitingForItsEnd() async throws {
            // stdin stays open after the mebibyte: a CLI that reads to the end of its input waits
            // forever (and is stopped after the timeout, failing the status check).
            let mebibyte = String(repeating: "A", count: 1 << 20)
            for reader in Self.readers {
                let result = cli.run(reader.arguments, feeding: Data(mebibyte.utf8), holdOpen: true)
                expectRefused(result, saying: reader.limit, input: mebibyte)
            }
            #expect(try await emulator.requests().isEmpty, "the CLI sent something")
        }

        @Test func moreThan64KiBInAllIsRefusedThoughEveryLineIsShort() async throws {
            let lines = (0..<100).map { Self.redirect(length: 1000, filler: Character(String($0 % 10))) }
            let input = lines.joined(separator: "\n") + "\n"
            let result = cli.run(["handle-redirect", "-"], feeding: Data(input.utf8), holdOpen: false)
            expectRefused(result, saying: "The input on stdin is larger than 64 KiB (65536 bytes)", input: lines[0])
            #expect(try await emulator.requests().isEmpty, "the CLI used the lines before the limit")
        }

        @Test func theLimitCountsCharactersNotBytes() async throws {
            // 8192 characters is within the limit, also when each takes two bytes; 8193 is not.
            for url in [Self.redirect(length: 8192), Self.redirect(length: 8192, filler: "é")] {
                #expect(url.utf16.count == 8192)
                let result = cli.run(["handle-redirect", "-"], input: url + "\n")
                #expect(!result.stderr.contains("on stdin is longer"), "a URL of 8192 characters was refused as too long")
                #expect(result.last["error"] as? String != "usage")
                SecretShapes.expectNone(in: result)
            }
            let tooLong = Self.redirect(length: 8193)
            expectRefused(
                cli.run(["handle-redirect", "-"], input: tooLong + "\n"), saying: "longer than 8192 characters", input: tooLong)
        }

        @Test func helpSaysHowMuchStandardInputIsRead() {
            for (arguments, token) in [
                (["--help"], "a user JWT of at most 16384"), (["turnkey", "--help"], "an OIDC token of at most 16384")
            ] {
                let help = cli.run(arguments)
                #expect(help.status == 0)
                #expect(help.stdout.contains("up to 64 KiB"))
                #expect(help.stdout.contains("a redirect URL of at most 8192 characters a line"))
                #expect(help.stdout.contains(token))
            }
        }
    }
}
